"""Comparison reports: a self-contained HTML page (inline CSS and SVG) and a Markdown version.

A report holds each system's corpus score with its 95% CI, precision, recall and fragmentation
penalty; p-values against the baseline and for every pair of systems; the distribution of segment
scores; and the segments where the systems disagree most, with their alignments.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import numpy as np

from ..core.results import CorpusResult, SegmentResult
from ..core.scorer import Scorer
from ..core.wording import plural
from .alignment_view import alignment_svg, legend_html, module_counts
from .significance import ComparisonResult, paired_approximate_randomization, paired_bootstrap

ALPHA = 0.05  # the significance mark's level
_DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
_TEST_FUNCTIONS = {"bs": paired_bootstrap, "ar": paired_approximate_randomization}
_BINS = 20
_PALETTE = ("#2563eb", "#dc2626", "#16a34a", "#d97706", "#9333ea", "#0891b2", "#db2777", "#4b5563")


@dataclass(frozen=True)
class Disagreement:
    """A segment where the systems' scores spread widely; ``segments`` are fully aligned results."""

    index: int
    spread: float
    references: list[str]
    hypotheses: dict[str, str]
    segments: dict[str, SegmentResult]


@dataclass(frozen=True)
class Report:
    """Everything a report shows (render with :func:`render_html` or :func:`render_markdown`)."""

    names: list[str]
    baseline: str
    corpus: dict[str, CorpusResult]
    comparisons: list[ComparisonResult]
    pairwise: dict[str, dict[tuple[str, str], float]]
    segment_scores: dict[str, np.ndarray]
    disagreements: list[Disagreement]
    modules: tuple[str, ...]


def build_report(systems: Mapping[str, Sequence[SegmentResult]], scorer: Scorer,
                 hypotheses: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]], *,
                 baseline: Optional[str] = None, tests: Sequence[str] = ("bs",), n_samples: Optional[int] = None,
                 seed: int = 12345, top: int = 5) -> Report:
    """Run the tests (against ``baseline``, default the first system, and for every pair) and pick
    the ``top`` segments with the largest score spread; ``hypotheses`` are the systems' texts."""
    names = list(systems)
    baseline = names[0] if baseline is None else baseline
    if set(hypotheses) != set(names):
        raise ValueError("hypotheses must have the same system names as systems")
    unknown = [t for t in tests if t not in _TEST_FUNCTIONS]
    if unknown or not tests:
        raise ValueError(f"tests must be some of {', '.join(_TEST_FUNCTIONS)}, got {list(tests)!r}")
    comparisons = [_test(t, systems, baseline, scorer, n_samples, seed) for t in tests]
    pairwise: dict[str, dict[tuple[str, str], float]] = {}
    for test, result in zip(tests, comparisons):
        pairs = pairwise[result.test] = {}
        for i, a in enumerate(names[:-1]):
            subset = {name: systems[name] for name in names[i:]}
            for b, s in _test(test, subset, a, scorer, n_samples, seed).systems.items():
                if b != a:
                    pairs[(a, b)] = pairs[(b, a)] = s.p_value
    n_refs = [len(r) for r in references]
    corpus = {name: scorer.aggregate(systems[name], n_refs) for name in names}
    scores = {name: np.array([s.score for s in systems[name]]) for name in names}
    return Report(names, baseline, corpus, comparisons, pairwise, scores,
                  _disagreements(scores, scorer, hypotheses, references, top), tuple(scorer.modules))


def _test(test: str, systems: Mapping[str, Sequence[SegmentResult]], baseline: str, scorer: Scorer,
          n_samples: Optional[int], seed: int) -> ComparisonResult:
    return _TEST_FUNCTIONS[test](systems, baseline, scorer, n_samples or _DEFAULT_SAMPLES[test], seed)


def _disagreements(scores: Mapping[str, np.ndarray], scorer: Scorer, hypotheses: Mapping[str, Sequence[str]],
                   references: Sequence[Sequence[str]], top: int) -> list[Disagreement]:
    matrix = np.array(list(scores.values()))
    spread = matrix.max(0) - matrix.min(0)
    out = []
    for k in np.argsort(-spread, kind="stable")[:top]:
        k = int(k)
        refs = list(references[k])
        hyps = {name: hypotheses[name][k] for name in scores}
        out.append(Disagreement(k, float(spread[k]), refs, hyps,
                                {name: scorer.sentence_score(h, refs) for name, h in hyps.items()}))
    return out


def distribution(scores: np.ndarray) -> dict[str, float]:
    """Minimum, quartiles, maximum and mean of segment scores."""
    q = np.quantile(scores, [0.0, 0.25, 0.5, 0.75, 1.0])
    return {"min": q[0], "q1": q[1], "median": q[2], "q3": q[3], "max": q[4], "mean": float(scores.mean())}


def format_p(p: Optional[float]) -> str:
    """A p-value with the significance mark (``*`` below ``ALPHA``), or ``baseline``."""
    return "baseline" if p is None else f"{p:.4f}{' *' if p < ALPHA else ''}"


# -- tables (shared by HTML and Markdown) --------------------------------------------------------


MEAN_NOTE = ("The mean segment score differs from the system METEOR: METEOR 1.5 scores a system from "
             "its segments' summed statistics (matches, lengths, chunks), not by averaging segment scores.")


def _system_table(report: Report) -> tuple[list[str], list[list[str]]]:
    header = ["system", "METEOR", "95% CI", "precision", "recall", "frag. penalty"]
    header += [f"p ({c.test}) vs {report.baseline}" for c in report.comparisons]
    rows = []
    first = report.comparisons[0]
    for name in report.names:
        c, s = report.corpus[name], first.systems[name]
        rows.append([name, f"{c.score:.4f}", f"[{s.ci[0]:.4f}, {s.ci[1]:.4f}]", f"{c.precision:.4f}",
                     f"{c.recall:.4f}", f"{c.fragmentation_penalty:.4f}"]
                    + [format_p(r.systems[name].p_value) for r in report.comparisons])
    return header, rows


def _pair_table(report: Report, test: str) -> tuple[list[str], list[list[str]]]:
    pairs = report.pairwise[test]
    header = [f"{test}: row vs column"] + report.names
    rows = [[a] + ["—" if a == b else format_p(pairs[(a, b)]) for b in report.names] for a in report.names]
    return header, rows


def _distribution_table(report: Report) -> tuple[list[str], list[list[str]]]:
    header = ["system", "segments", "mean", "min", "Q1", "median", "Q3", "max"]
    rows = []
    for name in report.names:
        d = distribution(report.segment_scores[name])
        rows.append([name, str(len(report.segment_scores[name]))]
                    + [f"{d[key]:.4f}" for key in ("mean", "min", "q1", "median", "q3", "max")])
    return header, rows


# -- HTML ----------------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1200px;color:#111827;
padding:0 16px}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d1d5db;padding:4px 10px;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#f3f4f6}
td.sig{background:#dcfce7;font-weight:600}.sig-note,.signature{color:#4b5563;font-size:.9em}
.signature{font-family:monospace;word-break:break-all}
.plots{display:flex;flex-wrap:wrap;gap:16px}.segment{margin:16px 0;padding:8px 12px;border:1px solid #e5e7eb;
border-radius:8px}.alignment{overflow-x:auto;margin:4px 0 12px}.legend{font-size:.85em;margin:4px 0}
.texts td{text-align:left}
"""


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page."""
    parts = [f"<h1>METEOR comparison of {len(report.names)} systems</h1>",
             f'<p class="signature">{html.escape(report.comparisons[0].signature)}</p>',
             "<h2>Systems</h2>", _html_table(*_system_table(report), table_id="systems"),
             f'<p class="sig-note">* p &lt; {ALPHA}. CI: 95% bootstrap percentile interval. p-values: '
             f"(c + 1) / (R + 1), c = samples whose statistic is at least the observed one.</p>",
             "<h2>Pairwise significance</h2>"]
    for test in report.pairwise:
        parts.append(_html_table(*_pair_table(report, test), table_id=f"pairwise-{test}"))
    parts += ["<h2>Segment score distributions</h2>", _html_table(*_distribution_table(report),
                                                                  table_id="distributions"),
              f'<p class="sig-note">{html.escape(MEAN_NOTE)}</p>',
              '<div class="plots">', _box_svg(report)]
    peak = max(int(np.histogram(s, _BINS, (0.0, 1.0))[0].max()) for s in report.segment_scores.values())
    for i, name in enumerate(report.names):
        parts.append(_histogram_svg(name, report.segment_scores[name], peak, _PALETTE[i % len(_PALETTE)]))
    parts += ["</div>", f"<h2>The {plural(len(report.disagreements), 'segment')} where the systems disagree most</h2>"]
    for d in report.disagreements:
        parts.append(_html_disagreement(d, report.modules))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>METEOR comparison</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")


def _html_table(header: list[str], rows: list[list[str]], table_id: str) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(
        f'<td{" class=sig" if cell.endswith(" *") else ""}>{html.escape(cell)}</td>' for cell in row) + "</tr>"
        for row in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _html_disagreement(d: Disagreement, modules: tuple[str, ...]) -> str:
    refs = "".join(f"<tr><td>reference {i + 1}</td><td>{html.escape(r)}</td></tr>" for i, r in enumerate(d.references))
    blocks = []
    for name, s in d.segments.items():
        blocks.append(
            f"<h4>{html.escape(name)}: METEOR {s.score:.4f} (P {s.precision:.4f}, R {s.recall:.4f}, "
            f"penalty {s.fragmentation_penalty:.4f}, reference {s.best_ref + 1})</h4>"
            f'<table class="texts"><tr><td>hypothesis</td><td>{html.escape(d.hypotheses[name])}</td></tr></table>'
            f'<div class="legend">{legend_html(module_counts(s.alignment, modules))}</div>'
            f'<div class="alignment">{alignment_svg(s.hyp_tokens, s.ref_tokens, s.alignment, modules)}</div>')
    return (f'<section class="segment"><h3>Segment {d.index + 1} (spread {d.spread:.4f})</h3>'
            f'<table class="texts">{refs}</table>{"".join(blocks)}</section>')


def _x(value: float, left: float, width: float) -> float:
    return left + value * width


def _box_svg(report: Report) -> str:
    """Box plots of the segment scores (whiskers: min and max; dot: mean), one row per system."""
    left, width, row = 120, 420, 34
    height = 40 + row * len(report.names)
    parts = [_axis(left, width, height - 22)]
    for i, name in enumerate(report.names):
        d = distribution(report.segment_scores[name])
        y = 16 + i * row + row / 2
        colour = _PALETTE[i % len(_PALETTE)]
        x = {k: _x(v, left, width) for k, v in d.items()}
        parts.append(
            f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" font-size="12">{html.escape(name)}</text>'
            f'<line x1="{x["min"]:.1f}" y1="{y:.1f}" x2="{x["max"]:.1f}" y2="{y:.1f}" stroke="{colour}"/>'
            f'<rect class="box" x="{x["q1"]:.1f}" y="{y - 10:.1f}" width="{max(x["q3"] - x["q1"], 1):.1f}" '
            f'height="20" fill="{colour}" fill-opacity="0.25" stroke="{colour}"/>'
            f'<line x1="{x["median"]:.1f}" y1="{y - 10:.1f}" x2="{x["median"]:.1f}" y2="{y + 10:.1f}" '
            f'stroke="{colour}" stroke-width="2"/>'
            f'<circle cx="{x["mean"]:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="box-plot" width="{left + width + 20}" '
            f'height="{height}" role="img" aria-label="segment score box plots">{"".join(parts)}</svg>')


def _histogram_svg(name: str, scores: np.ndarray, peak: int, colour: str) -> str:
    """Histogram of segment scores in 20 bins over [0, 1] (shared height scale)."""
    left, width, top, plot_h = 30, 260, 24, 110
    counts = np.histogram(scores, _BINS, (0.0, 1.0))[0]
    bar_w = width / _BINS
    parts = [_axis(left, width, top + plot_h),
             f'<text x="{left}" y="14" font-size="12" font-weight="600">{html.escape(name)}</text>',
             f'<text x="{left - 4}" y="{top + 8}" text-anchor="end" font-size="9">{peak}</text>']
    for b, c in enumerate(counts):
        h = plot_h * c / max(peak, 1)
        parts.append(f'<rect class="bar" x="{left + b * bar_w + 0.5:.1f}" y="{top + plot_h - h:.1f}" '
                     f'width="{bar_w - 1:.1f}" height="{h:.1f}" fill="{colour}"><title>{plural(int(c), "segment")} in '
                     f'[{b / _BINS:.2f}, {(b + 1) / _BINS:.2f})</title></rect>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="histogram" width="{left + width + 16}" '
            f'height="{top + plot_h + 26}" role="img" aria-label="segment score histogram of '
            f'{html.escape(name)}">{"".join(parts)}</svg>')


def _axis(left: float, width: float, y: float) -> str:
    ticks = "".join(f'<line x1="{_x(t, left, width):.1f}" y1="{y}" x2="{_x(t, left, width):.1f}" y2="{y + 4}" '
                    f'stroke="#6b7280"/><text x="{_x(t, left, width):.1f}" y="{y + 15}" font-size="9" '
                    f'text-anchor="middle">{t:g}</text>' for t in (0, 0.25, 0.5, 0.75, 1))
    return f'<line x1="{left}" y1="{y}" x2="{left + width}" y2="{y}" stroke="#6b7280"/>{ticks}'


# -- Markdown ------------------------------------------------------------------------------------


def render_markdown(report: Report) -> str:
    """The report's tables as Markdown (no plots)."""
    out = [f"# METEOR comparison of {len(report.names)} systems", "", f"`{report.comparisons[0].signature}`", "",
           "## Systems", "", _md_table(*_system_table(report)), "",
           f"\\* p < {ALPHA}. CI: 95% bootstrap percentile interval. p-values: (c + 1) / (R + 1), "
           "c = samples whose statistic is at least the observed one.", "", "## Pairwise significance", ""]
    for test in report.pairwise:
        out += [_md_table(*_pair_table(report, test)), ""]
    out += ["## Segment score distributions", "", _md_table(*_distribution_table(report)), "", MEAN_NOTE, "",
            f"## The {plural(len(report.disagreements), 'segment')} where the systems disagree most", ""]
    for d in report.disagreements:
        out += [f"### Segment {d.index + 1} (spread {d.spread:.4f})", ""]
        out += [f"- reference {i + 1}: {_md_text(r)}" for i, r in enumerate(d.references)] + [""]
        rows = [[name, f"{s.score:.4f}", d.hypotheses[name]] for name, s in d.segments.items()]
        out += [_md_table(["system", "METEOR", "hypothesis"], rows, text_columns=(0, 2)), ""]
    return "\n".join(out)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def _md_cell(text: str) -> str:
    """One of the report's own cells (numbers, p-values, intervals) in a Markdown table row."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_text(text: str) -> str:
    """User text (a system name, a hypothesis, a reference) as literal Markdown: HTML escaped (no tag,
    entity or comment survives), Markdown's punctuation backslash-escaped (no emphasis, link, image or
    code span), on one line."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.splitlines()))


def _md_table(header: list[str], rows: list[list[str]], text_columns: tuple[int, ...] = (0,)) -> str:
    """A Markdown table; the header and the ``text_columns`` of each row are user text (escaped)."""
    lines = ["| " + " | ".join(_md_text(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_md_text(c) if k in text_columns else _md_cell(c) for k, c in enumerate(row)) + " |"
              for row in rows]
    return "\n".join(lines)
