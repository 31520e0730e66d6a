"""METEOR 1.5 for lighteval: :func:`meteor_corpus_metric`, a ``CorpusLevelMetric``.

Per sample, :class:`METEORStatistics` scores the first prediction against the sample's golds (every gold
is a reference) and keeps the segment's summable statistics; at the corpus level, :class:`METEORCorpus`
scores their sum, which is exactly ``get_scorer(profile).corpus_score`` of the task's samples (for the
``nltk`` profile: the mean of the segment scores, in sample order).

``lighteval`` is imported when this module is, never by ``import meteor_metric``.
"""

from __future__ import annotations

from typing import Any, Sequence

from lighteval.metrics.metrics_corpus import CorpusLevelComputation
from lighteval.metrics.metrics_sample import SampleLevelComputation
from lighteval.metrics.utils.metric_utils import CorpusLevelMetric
from lighteval.tasks.requests import SamplingMethod

from ..profiles.registry import DEFAULT_PROFILE
from .summable import SummableScorer


class METEORStatistics(SampleLevelComputation):
    """A sample's summable METEOR statistics: its first prediction against all its golds."""

    def __init__(self, meteor: SummableScorer) -> None:
        self.meteor = meteor

    def compute(self, doc: Any, model_response: Any, **kwargs: Any) -> list:
        predictions = model_response.final_text
        if not predictions:
            raise ValueError(f"METEOR: the model gave no prediction for the sample of task {doc.task_name!r}, "
                             f"query {doc.query[:60]!r}")
        golds = list(doc.get_golds())
        return self.meteor.vector(self.meteor.segments([predictions[0]], [golds])[0])


class METEORCorpus(CorpusLevelComputation):
    """The corpus score of the samples' summed statistics."""

    def __init__(self, meteor: SummableScorer) -> None:
        self.meteor = meteor

    def compute_corpus(self, items: Sequence[Sequence[float]]) -> float:
        return self.meteor.score_of_vectors(list(items))


def meteor_corpus_metric(profile: str = DEFAULT_PROFILE, metric_name: str = "meteor",
                         **options: Any) -> CorpusLevelMetric:
    """A lighteval ``CorpusLevelMetric`` for generative tasks; ``profile`` and ``options`` go to
    :func:`~meteor_metric.get_scorer` (``language``, ``task``, ``normalization``, ``modules``, ...)."""
    meteor = SummableScorer(profile, **options)
    return CorpusLevelMetric(metric_name=metric_name, higher_is_better=True, category=SamplingMethod.GENERATIVE,
                             sample_level_fn=METEORStatistics(meteor), corpus_level_fn=METEORCorpus(meteor))
