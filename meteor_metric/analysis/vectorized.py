"""Align once, score many parameter sets: METEOR statistics per (segment, reference) as numpy arrays.

The alignment does not depend on alpha, beta, gamma, delta or the scoring weights (the aligner's
weights are fixed by module type), so a :class:`StatsTable` collected once can be rescored for any
parameters with numpy arithmetic (:func:`~meteor_metric.meteor15.sampling.pair_scores`: the jar's
formula in its operation order); :func:`segment_scores` picks each segment's best reference like
``Meteor.sentence_score`` (the first maximum).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Optional, Sequence

import numpy as np

from ..core.checks import References, check_corpus
from ..core.stats import CHUNKS_FIELD, MAX_MODULES, STATS_LINE_FIELDS, MeteorStats
from ..meteor15.meteor import Meteor
from ..meteor15.sampling import pair_scores, perfect_rows


@dataclass(frozen=True, eq=False)
class StatsTable:
    """The jar's 23 stats numbers for every (segment, reference) pair, segment-major.

    ``stats[i]`` is the ``-ssOut`` line of pair ``i``; ``segment[i]`` its segment (non-decreasing,
    every segment from 0 to ``n_segments - 1`` has at least one pair).
    """

    stats: np.ndarray
    segment: np.ndarray
    n_modules: int

    def __post_init__(self) -> None:
        stats, segment = np.asarray(self.stats), np.asarray(self.segment)
        if stats.ndim != 2 or stats.shape[1] != STATS_LINE_FIELDS:
            raise ValueError(f"stats must have shape (pairs, {STATS_LINE_FIELDS}), got {stats.shape}")
        if segment.shape != (len(stats),):
            raise ValueError(f"segment must have one entry per pair ({len(stats)}), got {segment.shape}")
        if len(segment) and (segment[0] != 0 or not np.all(np.isin(np.diff(segment), (0, 1)))):
            raise ValueError("segment must start at 0 and increase by 0 or 1 from pair to pair")
        if not 1 <= self.n_modules <= MAX_MODULES:
            raise ValueError(f"n_modules must be 1..{MAX_MODULES}, got {self.n_modules}")
        object.__setattr__(self, "stats", stats.astype(np.int64))
        object.__setattr__(self, "segment", segment.astype(np.int64))

    @property
    def n_pairs(self) -> int:
        return len(self.stats)

    @property
    def n_segments(self) -> int:
        return int(self.segment[-1]) + 1 if len(self.segment) else 0

    @cached_property
    def _layout(self) -> tuple[np.ndarray, np.ndarray, int]:
        """First pair of each segment, position of each pair within its segment, most references."""
        starts = np.searchsorted(self.segment, np.arange(self.n_segments))
        within = np.arange(self.n_pairs) - starts[self.segment]
        return starts, within, int(within.max()) + 1 if self.n_pairs else 0

    @cached_property
    def _scoring_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The stats as floats and the perfect-segment mask (computed once per table)."""
        return self.stats.astype(np.float64), perfect_rows(self.stats)

    @classmethod
    def from_stats(cls, per_segment: Sequence[Sequence[MeteorStats]], n_modules: int) -> "StatsTable":
        """A table from each segment's list of per-reference statistics."""
        rows = [s.to_list() for refs in per_segment for s in refs]
        segment = [k for k, refs in enumerate(per_segment) for _ in refs]
        if any(not refs for refs in per_segment):
            raise ValueError("every segment needs statistics for at least one reference")
        return cls(np.array(rows, dtype=np.int64).reshape(-1, STATS_LINE_FIELDS), np.array(segment), n_modules)

    @staticmethod
    def concat(tables: Sequence["StatsTable"]) -> "StatsTable":
        """Tables one after the other (segments renumbered)."""
        if not tables or len({t.n_modules for t in tables}) != 1:
            raise ValueError("concat needs at least one table, all with the same modules")
        offsets = np.cumsum([0] + [t.n_segments for t in tables[:-1]])
        return StatsTable(np.concatenate([t.stats for t in tables]),
                          np.concatenate([t.segment + o for t, o in zip(tables, offsets)]), tables[0].n_modules)

    def select(self, segments: np.ndarray) -> "StatsTable":
        """The table of the given segments (sorted, distinct indices), renumbered from 0."""
        segments = np.asarray(segments, dtype=np.int64)
        keep = np.isin(self.segment, segments)
        return StatsTable(self.stats[keep], np.searchsorted(segments, self.segment[keep]), self.n_modules)

    def save(self, path) -> None:
        """Write the table as a compressed ``.npz`` to ``path`` (a file name or a binary file)."""
        np.savez_compressed(path, stats=self.stats, segment=self.segment, n_modules=self.n_modules)

    @classmethod
    def load(cls, path: str) -> "StatsTable":
        with np.load(path) as data:
            return cls(data["stats"], data["segment"], int(data["n_modules"]))


def collect_stats(meteor: Meteor, hypotheses: Sequence[str], references: Sequence[References],
                  progress: Optional[Callable[[int], None]] = None) -> StatsTable:
    """Align every hypothesis with every one of its references (the slow step, done once)."""
    per_segment = []
    for hyp, refs in check_corpus(hypotheses, references):
        hyp_tokens = meteor.tokens(hyp)
        per_segment.append([meteor.align_tokens(hyp_tokens, meteor.tokens(r))[0] for r in refs])
        if progress is not None:
            progress(1)
    return StatsTable.from_stats(per_segment, len(meteor.modules))


def segment_scores(table: StatsTable, weights: Sequence[float], alpha: float, beta: float, gamma: float,
                   delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Each segment's score and the index of its best pair (the first maximum, as ``Meteor._segment``)."""
    if len(weights) != table.n_modules:
        raise ValueError(f"{len(weights)} weights for a table of {table.n_modules} modules")
    stats, perfect = table._scoring_arrays
    scores = pair_scores(stats, weights, alpha, beta, gamma, delta, perfect)
    starts, within, width = table._layout
    grid = np.full((table.n_segments, width), -1.0)
    grid[table.segment, within] = scores
    best = starts + np.argmax(grid, axis=1)
    return scores[best], best


def corpus_scores(table: StatsTable, best: np.ndarray, groups: np.ndarray, n_groups: int,
                  weights: Sequence[float], alpha: float, beta: float, gamma: float, delta: float) -> np.ndarray:
    """Corpus METEOR of each group of segments from the summed best-pair stats (``MeteorStats.sum``).

    ``groups[k]`` is segment ``k``'s group (e.g. its system); a perfect segment adds no chunks.
    """
    chosen = table.stats[best].copy()
    chosen[perfect_rows(chosen), CHUNKS_FIELD] = 0
    sums = np.zeros((n_groups, STATS_LINE_FIELDS), dtype=np.int64)
    np.add.at(sums, np.asarray(groups), chosen)
    return pair_scores(sums, weights, alpha, beta, gamma, delta)
