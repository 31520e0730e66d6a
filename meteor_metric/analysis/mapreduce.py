"""Corpus METEOR map-reduce style, on any engine (Spark, Ray, Dask, multiprocessing).

Map: score segments where they are, emit each one's corpus contribution as 23 numbers (the jar's
stats line; :meth:`MeteorStats.corpus_contribution`). Reduce: add the vectors. Finish: score the sum.
The result equals the single-process corpus score exactly, in any order and grouping::

    total = rdd.mapPartitions(contribution_vectors).reduce(add_vectors)
    score = corpus_score_of(total)

Profiles whose system score is a mean of segment scores (``nltk``) are not additive this way.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Optional, Sequence

from ..core.results import Metrics
from ..core.stats import MeteorStats
from ..profiles.registry import get_scorer


def contribution_vectors(pairs: Iterable[tuple[str, Sequence[str]]], language: str = "en",
                         task: Optional[str] = None, normalization: Optional[str] = None) -> Iterator[list[int]]:
    """Map side: each (hypothesis, references) pair's contribution to the corpus sum (meteor-1.5)."""
    scorer = get_scorer("meteor-1.5", language, task, normalization)
    for hyp, refs in pairs:
        yield scorer.sentence_score(hyp, refs).stats.corpus_contribution().to_list()


def add_vectors(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Reduce side: the field-by-field sum of two contribution vectors."""
    return [x + y for x, y in zip(a, b)]


def corpus_score_of(total: Sequence[int], language: str = "en", task: Optional[str] = None,
                    normalization: Optional[str] = None) -> Metrics:
    """Finish: the corpus metrics of summed contribution vectors, for the same configuration."""
    scorer = get_scorer("meteor-1.5", language, task, normalization)
    stats = MeteorStats.from_list(total, n_modules=len(scorer.modules))
    return scorer.score_stats(stats)
