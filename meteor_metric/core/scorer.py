"""The interface every profile's scorer implements (:class:`Scorer`), and what the profiles share.

A scorer turns texts into :class:`~meteor_metric.core.results.SegmentResult` and
:class:`~meteor_metric.core.results.CorpusResult`. Its hooks serve the layers above: ``tokens``
(alignment views), ``accumulator`` (streamed corpus scores), ``score_stats`` (statistics-based
profiles: map-reduce), ``sample_model`` (significance tests) and the signatures.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Optional, Sequence, TypeVar

from ..version import __version__
from .checks import References, check_pairs, check_pairwise
from .results import CorpusResult, Metrics, SegmentResult
from .stats import MeteorStats, StatsTotal

if TYPE_CHECKING:
    import numpy as np

    from .sampling import SampleModel

T = TypeVar("T")


class Accumulator(ABC):
    """A running corpus result: segments in one at a time.

    Accumulators of consecutive parts of a corpus merge (:meth:`merge`, in corpus order) into the
    accumulator of the whole: worker processes each sum a batch, the parent merges the batches. An
    accumulator pickles without its scorer (its counts only), so it travels back from a worker cheaply; one
    unpickled can be merged but gives no result."""

    _scorer: "Scorer"

    @abstractmethod
    def add(self, segment: SegmentResult, n_refs: int) -> None:
        """Add one scored segment and its number of references."""

    def add_many(self, segments: Sequence[SegmentResult], n_refs: Sequence[int]) -> None:
        """:meth:`add` of each scored segment with its number of references (one number per segment)."""
        _check_one_count_each(segments, n_refs)
        for segment, n in zip(segments, n_refs):
            self.add(segment, n)

    @abstractmethod
    def merge(self, other: "Accumulator") -> None:
        """Add what ``other`` (an accumulator of the same kind, of the segments after these) has added."""

    def __getstate__(self) -> dict:
        return {name: value for name, value in vars(self).items() if name != "_scorer"}

    @abstractmethod
    def result(self, segments: tuple[SegmentResult, ...] = ()) -> CorpusResult:
        """The corpus result (``segments`` is what to attach; a stream attaches none)."""


class Scorer(ABC):
    """What every profile's scorer provides; the signatures and the corpus aggregation are shared.

    Subclasses set ``_base_signature`` (every setting that changes the number) and implement the
    abstract methods."""

    _base_signature: str
    _corpus_tag = ""  # what the corpus signature adds before the reference count

    @property
    @abstractmethod
    def modules(self) -> tuple[str, ...]:
        """Module names; an alignment's ``Match.module`` indexes this."""

    @abstractmethod
    def tokens(self, text: str) -> tuple[str, ...]:
        """The tokens the scorer aligns for a text."""

    @abstractmethod
    def sentence_score(self, hypothesis: str, references: References) -> SegmentResult:
        """Score one hypothesis against one reference or a list of references (the best one counts)."""

    @abstractmethod
    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[References]) -> CorpusResult:
        """Score a corpus: ``references[k]`` is a string or a list of strings for ``hypotheses[k]``."""

    @abstractmethod
    def accumulator(self) -> Accumulator:
        """A running corpus result for this scorer (segments in one at a time, for streams)."""

    @abstractmethod
    def sample_model(self) -> "SampleModel":
        """How this scorer's system score is recomputed on resamples of segments (significance tests)."""

    @cached_property
    def signature(self) -> str:
        """Every setting that changes the number, plus the package version. Interned: the segment results of a
        corpus share one string (not a copy of 224 bytes each); made once (1 us a segment when made for each)."""
        return sys.intern(f"{self._base_signature}|version:{__version__}")

    def corpus_signature(self, n_refs: Iterable[int]) -> str:
        """The signature of a corpus score: adds the number of references per segment."""
        counts = sorted(set(n_refs))
        nrefs = str(counts[0]) if len(counts) == 1 else "var"
        return f"{self._base_signature}{self._corpus_tag}|nrefs:{nrefs}|version:{__version__}"

    def score_pairs(self, pairs: Sequence[tuple[str, Sequence[str]]], first: int = 0) -> list[SegmentResult]:
        """``sentence_score`` of each (hypothesis, references) pair; a ``ValueError`` names its segment
        as ``segment {first + index}``."""
        out = []
        for j, (hyp, refs) in enumerate(check_pairs(pairs, first)):
            try:
                out.append(self.sentence_score(hyp, refs))
            except ValueError as exc:
                raise ValueError(f"segment {first + j}: {exc}") from None
        return out

    def pairwise(self, candidates: Sequence[str], references: Optional[Sequence[str]] = None) -> "np.ndarray":
        """The matrix of segment scores for minimum-Bayes-risk decoding: entry ``[i, j]`` is
        ``sentence_score(candidates[i], references[j]).score`` (each reference on its own), as a float64 numpy
        array of shape ``(len(candidates), len(references))``. ``references=None`` scores the candidates against
        each other; the diagonal is included (``[i, i]`` is ``sentence_score(candidates[i], candidates[i])``)."""
        cands, refs = check_pairwise(candidates, references)
        scores = []
        for i, cand in enumerate(cands):
            for j, ref in enumerate(refs):
                try:
                    scores.append(self.sentence_score(cand, ref).score)
                except ValueError as exc:
                    raise ValueError(f"candidates[{i}] against references[{j}]: {exc}") from None
        return pairwise_matrix(scores, len(cands), len(refs))

    def aggregate(self, segments: Sequence[SegmentResult], n_refs: Iterable[int]) -> CorpusResult:
        """Combine already scored segments into a corpus result."""
        totals = self.accumulator()
        totals.add_many(segments, list(n_refs))
        return totals.result(tuple(segments))


class SummedStatsScorer(Scorer):
    """A scorer whose corpus score is :meth:`score_stats` of the summed segment statistics."""

    _exclude_perfect_chunks = True  # the jar's corpus rule (see StatsTotal)

    @abstractmethod
    def score_stats(self, stats: MeteorStats) -> Metrics:
        """Score statistics (of a segment, or summed over a corpus) with this configuration."""

    def accumulator(self) -> "SummedStatsAccumulator":
        """A running corpus result: segments in one at a time, none kept (for streams)."""
        return SummedStatsAccumulator(self, self._exclude_perfect_chunks)


class SummedStatsAccumulator(Accumulator):
    """Summed statistics of the segments added so far; the corpus score comes from them.

    ``exclude_perfect_chunks`` is the jar's corpus rule (see :class:`~meteor_metric.core.stats.StatsTotal`)."""

    def __init__(self, scorer: SummedStatsScorer, exclude_perfect_chunks: bool = True):
        self._scorer = scorer
        self._stats = StatsTotal(exclude_perfect_chunks)
        self._n_refs: set[int] = set()

    def add(self, segment: SegmentResult, n_refs: int) -> None:
        self._stats.add(segment.stats)
        self._n_refs.add(n_refs)

    def add_many(self, segments: Sequence[SegmentResult], n_refs: Sequence[int]) -> None:
        _check_one_count_each(segments, n_refs)
        self._stats.add_many([segment.stats for segment in segments])
        self._n_refs.update(n_refs)

    def merge(self, other: Accumulator) -> None:
        if not isinstance(other, SummedStatsAccumulator):
            raise TypeError(f"cannot merge a {type(other).__name__} into a SummedStatsAccumulator")
        self._stats.merge(other._stats)
        self._n_refs |= other._n_refs

    def result(self, segments: tuple[SegmentResult, ...] = ()) -> CorpusResult:
        if not self._stats.count:
            raise ValueError("cannot score an empty corpus: give at least one hypothesis")
        total = self._stats.total
        m = self._scorer.score_stats(total)
        return CorpusResult(m.score, m.precision, m.recall, m.fmean, m.fragmentation_penalty, total.chunks, total,
                            segments, self._scorer.corpus_signature(self._n_refs))


def _check_one_count_each(segments: Sequence[SegmentResult], n_refs: Sequence[int]) -> None:
    if len(segments) != len(n_refs):
        raise ValueError(f"{len(segments)} segments but {len(n_refs)} numbers of references")


def pairwise_matrix(scores: Sequence[float], rows: int, columns: int) -> "np.ndarray":
    """Row-major scores as a float64 ``(rows, columns)`` array."""
    import numpy as np

    return np.array(scores, dtype=np.float64).reshape(rows, columns)


def first_best(candidates: Iterable[T], score: Callable[[T], float]) -> tuple[int, T]:
    """The index and the candidate of the highest score; the first one on ties (the jar's and NLTK's
    choice of the best reference)."""
    best: Optional[tuple[int, T, float]] = None
    for k, candidate in enumerate(candidates):
        value = score(candidate)
        if best is None or value > best[2]:
            best = (k, candidate, value)
    if best is None:
        raise ValueError("no candidates: a segment needs at least one reference")
    return best[0], best[1]
