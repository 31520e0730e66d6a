"""``meteor-metric report``: a self-contained HTML (and Markdown) comparison report."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TextIO

from ..core.outputs import atomic_output
from . import common as cli
from .compare import add_system_args, load_systems, pick_baseline, tests_of, with_nrefs

REPORT_EPILOG = """\
examples:
  meteor-metric report --hyp a.txt --hyp b.txt --ref ref.txt --out report.html
  meteor-metric report --hyp a.txt --hyp b.txt --hyp c.txt --ref ref.txt --out r.html --markdown r.md --top 10

The HTML file is self-contained (inline CSS and SVG): system scores with 95% CIs, precision, recall
and fragmentation penalty; p-values for every pair of systems; per-segment score distributions; and
the segments where the systems disagree most, each with its alignments. --markdown writes the tables.
"""


def add_parser(commands) -> argparse.ArgumentParser:
    """Register ``report``."""
    report = commands.add_parser(
        "report", usage="meteor-metric report --hyp FILE [--hyp FILE ...] --ref FILE --out FILE [options]",
        help="write an HTML (and Markdown) comparison report",
        description="Compare systems and write a self-contained HTML report.",
        epilog=f"{REPORT_EPILOG}\n{cli.INPUT_HELP}\n{cli.EXIT_HELP}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_system_args(report)
    report.add_argument("--out", metavar="FILE", help="write the HTML report here")
    report.add_argument("--markdown", metavar="FILE", help="write the Markdown report here")
    report.add_argument("--top", type=cli.positive, default=5, metavar="N",
                        help="show the N segments where the systems disagree most (default 5)")
    cli.add_config_args(report)
    return report


def run(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``report`` (raises :class:`~meteor_metric.cli.common.InputError` for bad input)."""
    if not (args.out or args.markdown):
        raise cli.InputError("report needs --out FILE (HTML) and/or --markdown FILE")
    from ..analysis.report import build_report, render_html, render_markdown  # numpy: only when a report runs

    cli.checked_outputs([("--out", args.out), ("--markdown", args.markdown)], cli.input_files(args))
    systems = load_systems(args)
    baseline = pick_baseline(args, systems)
    try:
        report = build_report(systems.segments, systems.scorer, systems.hypotheses, systems.references,
                              baseline=baseline, tests=tests_of(args), n_samples=args.samples, seed=args.seed,
                              top=args.top)
    except ValueError as exc:
        raise cli.InputError(str(exc)) from None
    report = replace(report, comparisons=[with_nrefs(c, systems) for c in report.comparisons])
    pages = [(path, render(report)) for path, render in ((args.out, render_html), (args.markdown, render_markdown))
             if path]  # both complete before either file is touched
    for path, page in pages:
        with atomic_output(path) as f:
            f.write(page)
        out.write(f"wrote {path}\n")
