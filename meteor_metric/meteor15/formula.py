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
    """Score statistics in the jar's operation order (bit-compatible arithmetic).

    ``fragmentation="crossings"`` (an extension) takes frag = crossing pairs / match pairs (0 with
    fewer than two matches) instead of chunks / mean matched words."""
    t_wl = (delta * (stats.test_length - stats.test_function_words)) + ((1.0 - delta) * stats.test_function_words)
    r_wl = (delta * (stats.ref_length - stats.ref_function_words)) + ((1.0 - delta) * stats.ref_function_words)
    n = len(weights)
    if n > len(stats.test_content_matches):
        raise ValueError(f"{n} weights but statistics for {len(stats.test_content_matches)} modules")
    t_wm = r_wm = 0.0
    for i in range(n):
        t_wm += stats.test_content_matches[i] * weights[i] * delta
    for i in range(n):
        r_wm += stats.ref_content_matches[i] * weights[i] * delta
    for i in range(n):
        t_wm += stats.test_function_matches[i] * weights[i] * (1.0 - delta)
    for i in range(n):
        r_wm += stats.ref_function_matches[i] * weights[i] * (1.0 - delta)
    precision = java_div(t_wm, t_wl)
    recall = java_div(r_wm, r_wl)
    f1 = java_div(2 * precision * recall, precision + recall)
    fmean = java_div(1.0, java_div(1.0 - alpha, precision) + java_div(alpha, recall))
    if fragmentation == "crossings":
        frag = stats.crossings / stats.match_pairs if stats.match_pairs else 0.0
    elif stats.is_perfect:
        frag = 0.0
    else:
        frag = java_div(float(stats.chunks), (stats.test_word_matches + stats.ref_word_matches) / 2)
    penalty = gamma * _java_pow(frag, beta)
    score = fmean * (1.0 - penalty)
    if math.isnan(score):
        score = 0.0
    elif not score > 0.0:  # Math.max(score, 0.0), which also turns -0.0 into 0.0
        score = 0.0
    return Metrics(precision, recall, f1, fmean, frag, penalty, score)


def _java_pow(x: float, y: float) -> float:
    """``Math.pow`` for the values METEOR produces (x >= 0 or NaN)."""
    try:
        return math.pow(x, y)
    except (OverflowError, ValueError):
        return math.nan if math.isnan(x) else math.inf
