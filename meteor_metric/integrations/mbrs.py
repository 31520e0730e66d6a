"""METEOR for minimum-Bayes-risk decoding with `mbrs <https://github.com/naist-nlp/mbrs>`_: :class:`MetricMETEOR`,
registered in mbrs's metric registry as ``"meteor"`` when this module is imported.

mbrs's decoders score every hypothesis against every pseudo-reference through ``pairwise_scores``: here that is
the scorer's ``pairwise`` (each text normalized once, its word lookups shared across its row and column, the
pairs aligned in batches), and ``scores`` is ``score_pairs``. Every number is the ``sentence_score`` of its
pair (under METEOR 1.5, the jar's), as a float64 tensor. ``mbrs`` (and ``torch``) are imported when this
module is, never by ``import meteor_metric``.

>>> from mbrs.decoders import DecoderMBR
>>> metric = MetricMETEOR(MetricMETEOR.Config())
>>> candidates = ["the cat sat on the mat", "a cat sat on a mat", "the dog ran"]
>>> DecoderMBR(DecoderMBR.Config(), metric).decode(candidates, candidates).sentence  # the highest mean row
['a cat sat on a mat']
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Optional

import torch
from mbrs.metrics import Metric, get_metric, register

from ..profiles.registry import DEFAULT_PROFILE, get_scorer

#: The name this module registers :class:`MetricMETEOR` under in mbrs (``mbrs.metrics.get_metric``).
REGISTERED_NAME = "meteor"


class MetricMETEOR(Metric):
    """METEOR as an mbrs ``Metric``: ``score``, ``scores`` (N hypotheses against N references) and
    ``pairwise_scores`` (an H x R matrix); the source is not used. ``MetricMETEOR.Config`` chooses the METEOR
    as :func:`~meteor_metric.get_scorer` does (``profile``, ``language``, ``task``, ``normalization``,
    ``modules``, and any other keyword in ``options``); an unknown setting raises when the metric is made."""

    HIGHER_IS_BETTER = True

    @dataclass
    class Config(Metric.Config):
        """- profile (str): "meteor-1.5" (the jar's numbers), "nltk" or "original".
        - language (str): the language code (METEOR 1.5 has 18).
        - task (str, optional): a METEOR 1.5 parameter preset (``"rank"``, ``"adq"``, ...).
        - normalization (str, optional), modules (list of str, optional): as ``get_scorer``'s.
        - options (dict): any other keyword of ``get_scorer``."""

        profile: str = DEFAULT_PROFILE
        language: str = "en"
        task: Optional[str] = None
        normalization: Optional[str] = None
        modules: Optional[list[str]] = None
        options: dict[str, Any] = field(default_factory=dict)

    cfg: Config

    def __init__(self, cfg: "MetricMETEOR.Config") -> None:
        super().__init__(cfg)
        self.scorer = get_scorer(cfg.profile, cfg.language, cfg.task, cfg.normalization, cfg.modules,
                                 **cfg.options)

    def score(self, hypothesis: str, reference: str, source: Optional[str] = None) -> float:
        """The segment score of one hypothesis against one reference."""
        return self.scorer.sentence_score(hypothesis, reference).score

    def scores(self, hypotheses: list[str], references: list[str],
               sources: Optional[list[str]] = None) -> torch.Tensor:
        """The segment score of each hypothesis against the reference at its position."""
        if len(hypotheses) != len(references):
            raise ValueError(f"scores: {len(hypotheses):,} hypotheses but {len(references):,} references "
                             "(one reference per hypothesis)")
        results = self.scorer.score_pairs([(h, [r]) for h, r in zip(hypotheses, references)])
        return torch.tensor([r.score for r in results], dtype=torch.float64)

    def pairwise_scores(self, hypotheses: list[str], references: list[str],
                        source: Optional[str] = None) -> torch.Tensor:
        """The H x R matrix of each hypothesis's segment score against each reference."""
        return torch.from_numpy(self.scorer.pairwise(hypotheses, references))


def _register() -> None:
    try:
        registered = get_metric(REGISTERED_NAME)
    except KeyError:
        register(REGISTERED_NAME)(MetricMETEOR)
        return
    if registered.__module__ != __name__ or registered.__qualname__ != MetricMETEOR.__qualname__:
        warnings.warn(f"mbrs has a metric named {REGISTERED_NAME!r} already ({registered.__module__}."
                      f"{registered.__qualname__}); it is left as it is: use "
                      "meteor_metric.integrations.mbrs.MetricMETEOR directly", RuntimeWarning, stacklevel=2)


_register()
