"""The jar's formula over rows of statistics (numpy), and the meteor-1.5 sample model for significance tests."""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ..core.results import SegmentResult
from ..core.stats import CHUNKS_FIELD, MAX_MODULES, REF_WORDS_FIELD, STATS_LINE_FIELDS, TEST_WORDS_FIELD
from .params import MeteorParams


def pair_scores(stats: np.ndarray, weights: Sequence[float], alpha: float, beta: float, gamma: float,
                delta: float, perfect: Optional[np.ndarray] = None) -> np.ndarray:
    """METEOR of each row of 23 stats numbers: ``compute_metrics`` vectorized, same operation order.

    ``perfect`` (optional) is ``perfect_rows(stats)``, given when the caller has it already.
    """
    s = np.asarray(stats, dtype=np.float64)
    if perfect is None:
        perfect = perfect_rows(stats)
    n = len(weights)
    if n > MAX_MODULES:
        raise ValueError(f"at most {MAX_MODULES} weights, got {n}")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t_wl = (delta * (s[:, 0] - s[:, 2])) + ((1.0 - delta) * s[:, 2])
        r_wl = (delta * (s[:, 1] - s[:, 3])) + ((1.0 - delta) * s[:, 3])
        t_wm = np.zeros(len(s))
        r_wm = np.zeros(len(s))
        for i in range(n):
            t_wm = t_wm + s[:, 4 + 4 * i] * weights[i] * delta
        for i in range(n):
            r_wm = r_wm + s[:, 5 + 4 * i] * weights[i] * delta
        for i in range(n):
            t_wm = t_wm + s[:, 6 + 4 * i] * weights[i] * (1.0 - delta)
        for i in range(n):
            r_wm = r_wm + s[:, 7 + 4 * i] * weights[i] * (1.0 - delta)
        precision = t_wm / t_wl
        recall = r_wm / r_wl
        fmean = 1.0 / ((1.0 - alpha) / precision + alpha / recall)
        frag = np.where(perfect, 0.0, s[:, CHUNKS_FIELD] / ((s[:, TEST_WORDS_FIELD] + s[:, REF_WORDS_FIELD]) / 2))
        score = fmean * (1.0 - gamma * np.power(frag, beta))
    return np.where(score > 0.0, score, 0.0)  # NaN and negatives become 0, as Math.max(score, 0)


def perfect_rows(stats: np.ndarray) -> np.ndarray:
    """Everything matched in one chunk (``MeteorStats.is_perfect``) for each row."""
    s = np.asarray(stats)
    t_total = s[:, 4:20:4].sum(axis=1) + s[:, 6:20:4].sum(axis=1)
    r_total = s[:, 5:20:4].sum(axis=1) + s[:, 7:20:4].sum(axis=1)
    return (t_total == s[:, 0]) & (r_total == s[:, 1]) & (s[:, CHUNKS_FIELD] == 1)


class StatsModel:
    """``meteor-1.5``: summed statistics scored with the jar's formula (:func:`pair_scores`)."""

    def __init__(self, p: MeteorParams):
        if p.fragmentation != "chunks":
            raise ValueError(f"significance tests score the jar's statistics (chunks); fragmentation="
                             f"{p.fragmentation!r} is not supported here: use the default 'chunks'")
        self.n_modules = len(p.modules)
        self.weights = p.weights
        self.alpha, self.beta, self.gamma, self.delta = p.alpha, p.beta, p.gamma, p.delta

    def rows(self, segments: Sequence[SegmentResult]) -> np.ndarray:
        """Per segment: its corpus contribution, as the jar's 23 stats numbers."""
        out = []
        for s in segments:
            if len(s.stats.test_content_matches) != self.n_modules:
                raise ValueError(f"statistics have {len(s.stats.test_content_matches)} module slots, "
                                 f"this configuration has {self.n_modules} modules")
            out.append(s.stats.corpus_contribution().to_list())
        return np.array(out, dtype=np.float64).reshape(len(out), STATS_LINE_FIELDS)

    def scores(self, sums: np.ndarray, n: int) -> np.ndarray:
        """The jar's ``computeMetrics`` on each row of ``sums``, in its operation order."""
        return pair_scores(sums, self.weights, self.alpha, self.beta, self.gamma, self.delta)
