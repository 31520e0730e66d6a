"""``meteor-metric compare``: paired significance tests of systems on the same segments (and the
system loading that ``report`` shares)."""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional, TextIO

from ..core.corpus_io import FORMATS
from ..meteor15.meteor import SegmentResult
from ..profiles.registry import Scorer
from . import common as cli

if TYPE_CHECKING:  # numpy: imported when a comparison runs, not for every command line
    from ..analysis.significance import ComparisonResult

DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}  # sacreBLEU's defaults

COMPARE_EPILOG = """\
examples:
  meteor-metric compare --hyp base.txt --hyp new.txt --ref ref.txt
  meteor-metric compare --hyp a.txt --hyp b.txt --hyp c.txt --ref ref.txt --baseline b --test both
  meteor-metric compare --hyp a.txt --hyp b.txt --ref r1.txt --ref r2.txt --samples 2000 --format json

Systems are named after their files (--name to choose); the first is the baseline unless --baseline
names another. Every system's score is recomputed on resamples of the segments from the summed
statistics (meteor-1.5) or the mean of segment scores (nltk). Tests (--test): bs = paired bootstrap
resampling (Koehn 2004; default 1,000 resamples), ar = paired approximate randomization (Riezler &
Maxwell 2005; default 10,000 trials), both. p = (c + 1) / (R + 1) where c counts the R samples whose
statistic is at least the observed one (sacreBLEU's definitions, ties counted); "*" marks p < 0.05.
The 95% CI is the bootstrap percentile interval.
"""
@dataclass(frozen=True)
class Systems:
    """Scored systems on the same segments."""

    names: list[str]
    hypotheses: dict[str, list[str]]
    references: list[list[str]]
    segments: dict[str, list[SegmentResult]]
    scorer: Scorer


def add_parser(commands) -> argparse.ArgumentParser:
    """Register ``compare``."""
    compare = commands.add_parser(
        "compare", usage="meteor-metric compare --hyp FILE --hyp FILE [--hyp FILE ...] --ref FILE [options]",
        help="compare systems with paired significance tests",
        description="Score several systems on the same segments and test their differences.",
        epilog=f"{COMPARE_EPILOG}\n{cli.INPUT_HELP}\n{cli.EXIT_HELP}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_system_args(compare)
    compare.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    compare.add_argument("-w", "--width", type=cli.digits, default=4, metavar="N",
                         help="digits after the point of scores, deltas and CIs in text (default 4)")
    cli.add_config_args(compare)
    return compare


def add_system_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hyp", action="append", required=True, metavar="FILE",
                   help="one system's hypotheses; repeat for each system (- for standard input, once)")
    p.add_argument("--ref", action="append", default=[], metavar="FILE",
                   help="references, line-aligned with every --hyp; repeat for several reference sets")
    p.add_argument("--name", action="append", metavar="NAME",
                   help="system names, one per --hyp in order (default: the file names without extension)")
    p.add_argument("--input-format", choices=("auto",) + FORMATS, default="auto",
                   help="text, jsonl or tsv (default: from each --hyp file name, else text)")
    p.add_argument("--baseline", metavar="NAME", help="the system the others are tested against (default: the first)")
    p.add_argument("--test", choices=("bs", "ar", "both"), default="bs",
                   help="bs: paired bootstrap (default), ar: approximate randomization, both")
    p.add_argument("--samples", type=cli.positive, metavar="N",
                   help="resamples / trials (default 1000 for bs, 10000 for ar)")
    p.add_argument("--seed", type=cli.seed, default=12345, metavar="S", help="random seed (default 12345)")
    p.add_argument("--workers", type=cli.positive, default=1, metavar="N", help="score in N processes")


def run(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``compare`` (raises :class:`~meteor_metric.cli.common.InputError` for bad input)."""
    if len(args.hyp) < 2:
        raise cli.InputError(f"compare tests systems against each other and needs at least two (--hyp A --hyp B), "
                             f"got one: {args.hyp[0]}; to score one system use 'meteor-metric score --hyp "
                             f"{args.hyp[0]} --ref ...'")
    systems = load_systems(args)
    baseline = pick_baseline(args, systems)
    results = [with_nrefs(_run_test(systems, baseline, t, args.samples, args.seed), systems)
               for t in tests_of(args)]
    write_comparison(results, args.format, out, args.width)


def pick_baseline(args: argparse.Namespace, systems: Systems) -> str:
    """``--baseline``, or the first system."""
    baseline = args.baseline if args.baseline is not None else systems.names[0]
    if baseline not in systems.segments:
        raise cli.InputError(f"--baseline {baseline!r} is not one of the systems: {', '.join(systems.names)}")
    return baseline


def with_nrefs(result: ComparisonResult, systems: Systems) -> ComparisonResult:
    """``result`` with the corpus signature (``nrefs:``) of the systems' references in its signature."""
    scorer = systems.scorer
    corpus = scorer.corpus_signature(len(refs) for refs in systems.references)
    return replace(result, signature=result.signature.replace(scorer.signature, corpus, 1))


def tests_of(args: argparse.Namespace) -> tuple[str, ...]:
    """The tests ``--test`` names."""
    return ("bs", "ar") if args.test == "both" else (args.test,)


def load_systems(args: argparse.Namespace) -> Systems:
    """Read and score every ``--hyp`` against the shared references."""
    names = _system_names(args.hyp, args.name)
    from ..analysis.significance import sample_model

    spec, scorer = cli.configured_scorer(args)
    try:
        sample_model(scorer)  # fail before scoring if the profile or configuration has no significance test
    except (TypeError, ValueError) as exc:
        raise cli.InputError(str(exc)) from None
    hypotheses: dict[str, list[str]] = {}
    references: Optional[list[list[str]]] = None
    for name, path in zip(names, args.hyp):
        corpus = cli.CorpusInput(args, path)
        try:
            pairs = list(corpus.pairs())
        finally:
            corpus.close()
        hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
        if references is None:
            references = refs
        elif refs != references:
            raise cli.InputError(f"{path} does not share the references of {args.hyp[0]}: "
                                 "a paired test needs the same segments and references")
        hypotheses[name] = hyps
    try:
        with cli.worker_pool(spec, args.workers) as pool:
            segments = {name: [s for s, _ in cli.score_stream(scorer, zip(hyps, references), pool, total=len(hyps))]
                        for name, hyps in hypotheses.items()}
    except ValueError as exc:
        raise cli.InputError(str(exc)) from None
    return Systems(names, hypotheses, references, segments, scorer)


def _system_names(paths: list[str], names: Optional[list[str]]) -> list[str]:
    if names is not None:
        if len(names) != len(paths):
            raise cli.InputError(f"{len(names)} --name for {len(paths)} --hyp: give one name per system")
    else:
        names = ["stdin" if p == "-" else os.path.splitext(os.path.basename(p))[0] for p in paths]
    if paths.count("-") > 1:
        raise cli.InputError("only one --hyp can be standard input (-)")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise cli.InputError(f"two systems are named {repeated[0]!r}: give each one a --name")
    return names


def _run_test(systems: Systems, baseline: str, test: str, n_samples: Optional[int], seed: int) -> ComparisonResult:
    from ..analysis.significance import paired_approximate_randomization, paired_bootstrap

    fn = paired_bootstrap if test == "bs" else paired_approximate_randomization
    try:
        return fn(systems.segments, baseline, systems.scorer, n_samples or DEFAULT_SAMPLES[test], seed)
    except ValueError as exc:
        raise cli.InputError(str(exc)) from None


def write_comparison(results: list[ComparisonResult], fmt: str, out: TextIO, width: int = 4) -> None:
    """Print the systems with score, delta to the baseline, 95% CI and p-value per test, as a text
    table (``width`` digits) or JSON (full precision)."""
    from ..analysis.report import ALPHA, format_p

    first = results[0]
    base = first.systems[first.baseline].score
    if fmt == "json":
        json.dump({
            "baseline": first.baseline,
            "systems": [{"name": name, "score": s.score, "delta": s.score - base, "ci95": list(s.ci),
                         "p_values": {r.test: r.systems[name].p_value for r in results}}
                        for name, s in first.systems.items()],
            "tests": {r.test: {"n_samples": r.n_samples, "seed": r.seed, "signature": r.signature}
                      for r in results},
        }, out, ensure_ascii=False)
        out.write("\n")
        return
    header = ["system", "METEOR", "delta", "95% CI"] + [f"p ({r.test})" for r in results]
    rows = [[name, f"{s.score:.{width}f}", "-" if name == first.baseline else f"{s.score - base:+.{width}f}",
             f"[{s.ci[0]:.{width}f}, {s.ci[1]:.{width}f}]"]
            + [format_p(r.systems[name].p_value) for r in results] for name, s in first.systems.items()]
    widths = [max(len(str(row[k])) for row in [header] + rows) for k in range(len(header))]
    for row in [header] + rows:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() + "\n")
    out.write(f"\n* p < {ALPHA} against the baseline ({first.baseline}); delta: score minus the baseline's; "
              "95% CI: bootstrap percentile interval\n")
    for r in results:
        out.write(f"Signature:\t{r.signature}\n")
