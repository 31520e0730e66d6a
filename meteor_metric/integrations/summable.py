"""What the framework adapters share: segments as summable number vectors, and the corpus score of a sum.

Frameworks aggregate a metric by adding per-segment numbers (torchmetrics' ``dist_reduce_fx="sum"``,
sacreBLEU's sufficient statistics, lm-eval's and lighteval's per-sample values). A profile whose corpus
score comes from summed statistics (``meteor-1.5``, ``original``) gives each segment its contribution to
the corpus sum, in whole numbers (the jar's rule: a perfect segment adds no chunks), and the score of the
summed vectors is exactly the scorer's ``corpus_score``. A profile whose corpus score is the mean of the
segment scores (``nltk``) gives ``[score, 1]``; its exact corpus score is ``np.mean`` of the scores in
corpus order (:meth:`SummableScorer.mean_of`), which is what its ``corpus_score`` computes.
"""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from ..core.checks import References, check_corpus
from ..core.results import SegmentResult
from ..core.scorer import Scorer, SummedStatsScorer
from ..core.stats import MeteorStats
from ..profiles.registry import get_scorer

#: The scalar fields at the front of a statistics vector; the per-module tuples follow.
SCALAR_FIELDS = ("test_length", "ref_length", "test_function_words", "ref_function_words", "chunks",
                 "test_word_matches", "ref_word_matches", "crossings", "match_pairs")
MODULE_FIELDS = ("test_content_matches", "ref_content_matches", "test_function_matches", "ref_function_matches")

Number = Union[int, float]


class SummableScorer:
    """A scorer (``get_scorer(profile, **options)``) seen as per-segment vectors that add up.

    ``additive`` is True for the summed-statistics profiles; ``width`` is the vector length
    (``9 + 4 * modules`` numbers, or 2 for the mean profile)."""

    def __init__(self, profile: str = "meteor-1.5", **options: Any) -> None:
        self.scorer: Scorer = get_scorer(profile, **options)  # shared within a process
        self.profile = profile
        self.options = options
        self.additive = isinstance(self.scorer, SummedStatsScorer)
        self.n_modules = len(self.scorer.modules)
        self.width = len(SCALAR_FIELDS) + len(MODULE_FIELDS) * self.n_modules if self.additive else 2

    def __reduce__(self) -> tuple:
        """Copies and pickles carry the options, not the scorer (rebuilt, or shared, where it lands)."""
        return build_summable, (self.profile, self.options)

    @property
    def signature(self) -> str:
        """The scorer's signature: every setting that changes the number, and the package version."""
        return self.scorer.signature

    def segments(self, hypotheses: Sequence[str], references: Sequence[References],
                 hyp_name: str = "predictions") -> list[SegmentResult]:
        """Each (hypothesis, references) pair scored; a ``TypeError``/``ValueError`` names the segment."""
        return self.scorer.score_pairs(list(check_corpus(hypotheses, references, hyp_name)))

    def vector(self, segment: SegmentResult) -> list[Number]:
        """What the segment adds to the corpus sum (see the module docstring)."""
        if not self.additive:
            return [segment.score, 1]
        contribution = self.scorer.aggregate([segment], [1]).stats  # the scorer's own corpus rule
        return ([getattr(contribution, name) for name in SCALAR_FIELDS]
                + [x for name in MODULE_FIELDS for x in getattr(contribution, name)])

    def stats_of(self, total: Sequence[Number]) -> MeteorStats:
        """The :class:`~meteor_metric.MeteorStats` of a summed vector (whole numbers, as floats or ints)."""
        values = [float(v) for v in total]
        if len(values) != self.width or any(not (v >= 0 and v == int(v)) for v in values):
            raise ValueError(f"a summed METEOR statistics vector here has {self.width} non-negative whole "
                             f"numbers, got {list(total)!r}")
        ints = [int(v) for v in values]
        scalars = dict(zip(SCALAR_FIELDS, ints))
        n = self.n_modules
        start = len(SCALAR_FIELDS)
        modules = {name: tuple(ints[start + k * n: start + (k + 1) * n]) for k, name in enumerate(MODULE_FIELDS)}
        return MeteorStats(**scalars, **modules)

    def score_of_sum(self, total: Sequence[Number]) -> float:
        """The corpus score of summed vectors (an additive profile; a mean profile: sum / count)."""
        if not self.additive:
            score_sum, count = (float(v) for v in total)
            if count <= 0:
                raise ValueError("cannot score an empty corpus: give at least one prediction")
            return score_sum / count
        return self.scorer.score_stats(self.stats_of(total)).score  # type: ignore[attr-defined]

    def score_of_vectors(self, vectors: Sequence[Sequence[Number]]) -> float:
        """The corpus score of per-segment vectors: exactly ``corpus_score(...).score`` of those segments
        (for the mean profile, ``np.mean`` of the scores in the given order)."""
        if len(vectors) == 0:
            raise ValueError("cannot score an empty corpus: give at least one prediction")
        rows = np.asarray(vectors, dtype=np.float64 if not self.additive else np.int64)
        if not self.additive:
            return self.mean_of(rows[:, 0])
        return self.score_of_sum(rows.sum(axis=0).tolist())

    @staticmethod
    def mean_of(scores: Sequence[float]) -> float:
        """The mean profile's corpus score of segment scores (``np.mean``, as its ``corpus_score``)."""
        values = np.ascontiguousarray(scores, dtype=np.float64)
        if values.size == 0:
            raise ValueError("cannot score an empty corpus: give at least one prediction")
        return float(np.mean(values))


def build_summable(profile: str, options: dict) -> SummableScorer:
    """``SummableScorer(profile, **options)`` (what copies and pickles of one are rebuilt with)."""
    return SummableScorer(profile, **options)
