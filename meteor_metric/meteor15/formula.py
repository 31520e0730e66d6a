"""Scores from statistics: the jar's ``MeteorScorer.computeMetrics`` with IEEE semantics."""

from __future__ import annotations

import math
from typing import Sequence

from ..core.javafmt import java_div
from ..core.results import Metrics
from ..core.stats import MeteorStats


def compute_metrics(stats: MeteorStats, weights: Sequence[float],
                    alpha: float, beta: float, gamma: float, delta: float,
                    fragmentation: str = "chunks") -> Metrics:
    """Score statistics in the jar's operation order (bit-compatible arithmetic: the same operations on the
    same doubles in the same order; divisions by zero as Java's, :func:`java_div`).

    ``fragmentation="crossings"`` (an extension) takes frag = crossing pairs / match pairs (0 with
    fewer than two matches) instead of chunks / mean matched words."""
    t_len, r_len = stats.test_length, stats.ref_length
    t_fw, r_fw = stats.test_function_words, stats.ref_function_words
    rest = 1.0 - delta
    t_wl = (delta * (t_len - t_fw)) + (rest * t_fw)
    r_wl = (delta * (r_len - r_fw)) + (rest * r_fw)
    tc, rc = stats.test_content_matches, stats.ref_content_matches
    tf, rf = stats.test_function_matches, stats.ref_function_matches
    if len(weights) > len(tc):
        raise ValueError(f"{len(weights)} weights but statistics for {len(tc)} modules")
    t_wm = r_wm = 0.0
    for w, t, r in zip(weights, tc, rc):  # the jar sums content matches of every module first
        t_wm += t * w * delta
        r_wm += r * w * delta
    for w, t, r in zip(weights, tf, rf):
        t_wm += t * w * rest
        r_wm += r * w * rest
    # a / b where b is not zero (NaN included), else Java's x/0 (java_div)
    precision = t_wm / t_wl if t_wl else java_div(t_wm, t_wl)
    recall = r_wm / r_wl if r_wl else java_div(r_wm, r_wl)
    both = precision + recall
    f1 = 2 * precision * recall / both if both else java_div(2 * precision * recall, both)
    weighted = ((1.0 - alpha) / precision if precision else java_div(1.0 - alpha, precision)) + (
        alpha / recall if recall else java_div(alpha, recall))
    fmean = 1.0 / weighted if weighted else java_div(1.0, weighted)
    chunks = stats.chunks
    if fragmentation == "crossings":
        frag = stats.crossings / stats.match_pairs if stats.match_pairs else 0.0
    elif chunks == 1 and stats.is_perfect:  # (only a one-chunk segment can be: the sums wait till then)
        frag = 0.0
    else:
        frag = java_div(float(chunks), (stats.test_word_matches + stats.ref_word_matches) / 2)
    penalty = gamma * _java_pow(frag, beta)
    score = fmean * (1.0 - penalty)
    if not score > 0.0:  # NaN, and Math.max(score, 0.0), which also turns -0.0 into 0.0
        score = 0.0
    return Metrics(precision, recall, f1, fmean, frag, penalty, score)


def _java_pow(x: float, y: float) -> float:
    """``Math.pow`` for the values METEOR produces (x >= 0 or NaN)."""
    try:
        return math.pow(x, y)
    except (OverflowError, ValueError):
        return math.nan if math.isnan(x) else math.inf
