"""The result types every scorer returns."""

from __future__ import annotations

from dataclasses import dataclass

from .alignment import Match
from .frozen import positional_constructor
from .stats import MeteorStats


@dataclass(frozen=True)
class SegmentResult:
    """METEOR of one hypothesis against its best reference.

    ``alignment`` lists the matches in reference order; ``hyp_tokens`` and
    ``ref_tokens`` are the normalised tokens the alignment indexes.
    """

    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation_penalty: float
    chunks: int
    stats: MeteorStats
    best_ref: int
    alignment: tuple[Match, ...]
    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[str, ...]
    signature: str


#: ``SegmentResult(*values)`` of all 12 fields, in a third of the time (for each scored segment).
make_segment = positional_constructor(SegmentResult)


@dataclass(frozen=True)
class CorpusResult:
    """Corpus METEOR, computed from the summed segment statistics (not a mean of segment scores)."""

    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation_penalty: float
    chunks: int
    stats: MeteorStats
    segments: tuple[SegmentResult, ...]
    signature: str

    @property
    def segment_scores(self) -> list[float]:
        return [s.score for s in self.segments]


@dataclass(frozen=True)
class Metrics:
    """Precision, recall, Fmean, fragmentation and score of one set of statistics.

    Values are Java doubles: precision, recall and the penalty can be NaN or
    infinite (e.g. with no matches); ``score`` is always a number in [0, 1]
    for non-negative parameters.
    """

    precision: float
    recall: float
    f1: float
    fmean: float
    fragmentation: float
    fragmentation_penalty: float
    score: float
