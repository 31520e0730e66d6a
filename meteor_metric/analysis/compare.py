"""Comparing systems scored on the same segments: paired significance tests, as a table or JSON.

The ``meteor-metric compare`` and ``report`` commands (:mod:`meteor_metric.cli.compare`) read the
files and score them; this module runs the tests and writes the comparison.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Optional, TextIO

from ..core.javafmt import java_double_str
from ..core.results import SegmentResult
from ..core.scorer import Scorer
from .report import ALPHA, format_p
from .significance import ComparisonResult, paired_approximate_randomization, paired_bootstrap

DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}  # sacreBLEU's defaults


@dataclass(frozen=True)
class Systems:
    """Scored systems on the same segments."""

    names: list[str]
    hypotheses: dict[str, list[str]]
    references: list[list[str]]
    segments: dict[str, list[SegmentResult]]
    scorer: Scorer


def run_test(systems: Systems, baseline: str, test: str, n_samples: Optional[int] = None,
             seed: int = 12345) -> ComparisonResult:
    """The paired test ``test`` (``"bs"`` or ``"ar"``) of every system against ``baseline``
    (``n_samples`` ``None``: :data:`DEFAULT_SAMPLES`); bad settings raise ``ValueError``."""
    if test not in DEFAULT_SAMPLES:
        raise ValueError(f"unknown test {test!r}; choose one of: {', '.join(DEFAULT_SAMPLES)}")
    fn = paired_bootstrap if test == "bs" else paired_approximate_randomization
    return fn(systems.segments, baseline, systems.scorer, n_samples or DEFAULT_SAMPLES[test], seed)


def write_comparison(results: list[ComparisonResult], fmt: str, out: TextIO) -> None:
    """Print the systems with score, 95% CI and p-value per test, as a text table or JSON."""
    first = results[0]
    if fmt == "json":
        json.dump({
            "baseline": first.baseline,
            "systems": [{"name": name, "score": s.score, "ci95": list(s.ci),
                         "p_values": {r.test: r.systems[name].p_value for r in results}}
                        for name, s in first.systems.items()],
            "tests": {r.test: {"n_samples": r.n_samples, "seed": r.seed, "signature": r.signature}
                      for r in results},
        }, out, ensure_ascii=False)
        out.write("\n")
        return
    header = ["system", "METEOR", "95% CI"] + [f"p ({r.test})" for r in results]
    rows = [[name, java_double_str(s.score), f"[{s.ci[0]:.4f}, {s.ci[1]:.4f}]"]
            + [format_p(r.systems[name].p_value) for r in results] for name, s in first.systems.items()]
    widths = [max(len(str(row[k])) for row in [header] + rows) for k in range(len(header))]
    for row in [header] + rows:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() + "\n")
    out.write(f"\n* p < {ALPHA} against the baseline ({first.baseline}); 95% CI: bootstrap percentile interval\n")
    for r in results:
        out.write(f"Signature:\t{r.signature}\n")
