"""METEOR 1.5 for lm-evaluation-harness: the metric ``meteor`` and the aggregation ``meteor``.

Importing this module registers both in lm-eval's registry (so a task YAML's ``metric: meteor`` is this
METEOR, not lm-eval's fallback to HF's NLTK METEOR). Per sample, :func:`meteor_sample` returns the
sample's settings and summable statistics; the aggregation :func:`meteor_corpus` scores the summed statistics,
which is exactly ``get_scorer(profile).corpus_score`` of the task's samples (for the ``nltk`` profile:
the mean of the segment scores, in sample order). Options in the YAML entry (``profile``,
``language``, ``normalization``, ...) reach :func:`~meteor_metric.get_scorer`.

``lm_eval`` is imported when this module is, never by ``import meteor_metric``.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

import lm_eval.api.metrics  # noqa: F401  (lm-eval's own metrics first: its registry loads them only when empty)
from lm_eval.api.registry import register_aggregation, register_metric

from ..core.checks import References
from ..profiles.registry import DEFAULT_PROFILE
from .summable import SummableScorer

NAME = "meteor"


def _options_key(profile: str, options: dict[str, Any]) -> str:
    return json.dumps({"profile": profile, **options}, sort_keys=True)


def meteor_sample(references: Sequence[References], predictions: Sequence[str], profile: str = DEFAULT_PROFILE,
                  **options: Any) -> tuple[str, list]:
    """One sample: ``(settings as JSON, statistics)`` (lm-eval passes one prediction and its target; a
    tuple, as a dict would be spread into several metrics)."""
    meteor = SummableScorer(profile, **options)
    if len(predictions) != 1 or len(references) != 1:
        raise ValueError(f"lm-eval's meteor metric scores one sample at a time, got {len(predictions)} "
                         f"predictions and {len(references)} references")
    segment = meteor.segments(predictions, references)[0]
    return _options_key(profile, options), meteor.vector(segment)


def meteor_corpus(items: Sequence[tuple[str, list]]) -> float:
    """The corpus score of the samples' summed statistics (the aggregation ``meteor``)."""
    if not items:
        raise ValueError("meteor aggregation: no samples to score")
    configs = {config for config, _ in items}
    if len(configs) != 1:
        raise ValueError(f"meteor aggregation: the samples were scored with {len(configs)} different settings "
                         f"({sorted(configs)}); use one meteor entry per setting, each with its own name")
    options = json.loads(configs.pop())
    meteor = SummableScorer(options.pop("profile"), **options)
    return meteor.score_of_vectors([stats for _, stats in items])


register_aggregation(NAME)(meteor_corpus)
register_metric(metric=NAME, higher_is_better=True, output_type="generate_until", aggregation=NAME)(meteor_sample)
