"""METEOR 1.5 as a torchmetrics metric: :class:`METEORScore` and the functional :func:`meteor_score`.

The states are summed statistics (``dist_reduce_fx="sum"``), so a corpus split over processes (DDP) or
batches gives exactly the single-process ``Meteor().corpus_score``. The ``nltk`` profile's corpus score is
the mean of the segment scores: its state is the segment scores (``"cat"``), and the mean is ``np.mean``
of them in corpus order (processes gathered in rank order).

``torchmetrics`` (and ``torch``) are imported when this module is, never by ``import meteor_metric``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import torch
from torchmetrics import Metric
from torchmetrics.utilities.data import dim_zero_cat

from ..core.checks import References
from ..profiles.registry import DEFAULT_PROFILE
from .summable import SummableScorer

#: Keyword arguments of ``torchmetrics.Metric`` itself (the others configure the scorer).
METRIC_KWARGS = ("compute_on_cpu", "dist_sync_on_step", "process_group", "dist_sync_fn",
                 "distributed_available_fn", "sync_on_compute", "compute_with_cache")

Preds = Union[str, Sequence[str]]
Target = Union[str, Sequence[References]]


def _corpus(preds: Preds, target: Target) -> tuple[Sequence[str], Sequence[References]]:
    """torchmetrics' text convention: a single prediction may be a string, and so may its target."""
    if isinstance(preds, str):
        preds = [preds]
    if isinstance(target, str):
        target = [target]
    return preds, target


class METEORScore(Metric):
    """Corpus METEOR (the jar's, from summed statistics), accumulated over ``update`` calls and processes.

    ``update(preds, target)``: ``preds`` a list of strings, ``target`` one string or list of strings
    (references) per prediction. ``compute()`` gives the corpus score as a float64 tensor, or, with
    ``return_sentence_level_score=True``, ``(corpus score, segment scores)``. ``profile`` and every other
    keyword of :func:`~meteor_metric.get_scorer` (``language``, ``task``, ``normalization``, ``modules``,
    ...) choose the METEOR; the keywords of ``torchmetrics.Metric`` (``sync_on_compute``, ...) go to it.

    >>> metric = METEORScore()
    >>> metric.update(["the cat sat on the mat"], [["the cat sat on the mat", "a cat was on a mat"]])
    >>> float(metric.compute())
    1.0
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(self, profile: str = DEFAULT_PROFILE, return_sentence_level_score: bool = False,
                 **kwargs: Any) -> None:
        metric_kwargs = {k: kwargs.pop(k) for k in METRIC_KWARGS if k in kwargs}
        super().__init__(**metric_kwargs)
        self.meteor = SummableScorer(profile, **kwargs)
        self.return_sentence_level_score = bool(return_sentence_level_score)
        self.add_state("segments", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")
        if self.meteor.additive:
            self.add_state("stats", torch.zeros(self.meteor.width, dtype=torch.int64), dist_reduce_fx="sum")
        if self.return_sentence_level_score or not self.meteor.additive:
            self.add_state("sentence_scores", [], dist_reduce_fx="cat")

    @property
    def signature(self) -> str:
        """The scorer's signature (every setting that changes the number)."""
        return self.meteor.signature

    def update(self, preds: Preds, target: Target) -> None:
        """Score a batch: one prediction string each, one string or list of strings of references each."""
        segments = self.meteor.segments(*_corpus(preds, target))
        if not segments:
            return
        self.segments += len(segments)
        if self.meteor.additive:
            vectors = torch.tensor([self.meteor.vector(s) for s in segments], dtype=torch.int64)
            self.stats += vectors.sum(dim=0).to(self.stats.device)
        if self.return_sentence_level_score or not self.meteor.additive:
            self.sentence_scores.append(torch.tensor([s.score for s in segments], dtype=torch.float64,
                                                     device=self.segments.device))

    def compute(self) -> Union[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """The corpus score (float64), and the segment scores with ``return_sentence_level_score``."""
        if int(self.segments) == 0:
            raise ValueError("METEORScore.compute(): no predictions yet; call update(preds, target) first")
        if self.meteor.additive:
            value = self.meteor.score_of_sum(self.stats.tolist())
        else:
            value = self.meteor.mean_of(dim_zero_cat(self.sentence_scores).cpu().numpy())
        score = torch.tensor(value, dtype=torch.float64)
        if self.return_sentence_level_score:
            return score, dim_zero_cat(self.sentence_scores)
        return score

    def plot(self, val: Optional[Any] = None, ax: Optional[Any] = None) -> Any:
        """Plot one value or a sequence of values (torchmetrics' plot; needs matplotlib)."""
        return self._plot(val, ax)


def meteor_score(preds: Preds, target: Target, profile: str = DEFAULT_PROFILE,
                 return_sentence_level_score: bool = False,
                 **options: Any) -> Union[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
    """Functional :class:`METEORScore`: the corpus score of ``preds`` against ``target`` (float64), and
    the segment scores with ``return_sentence_level_score``; ``options`` go to ``get_scorer``.

    >>> float(meteor_score(["the cat sat on the mat"], [["the cat sat on the mat"]]))
    1.0
    """
    meteor = SummableScorer(profile, **options)
    segments = meteor.segments(*_corpus(preds, target))
    if not segments:
        raise ValueError("meteor_score(): no predictions; give at least one")
    score = torch.tensor(meteor.score_of_vectors([meteor.vector(s) for s in segments]), dtype=torch.float64)
    if return_sentence_level_score:
        return score, torch.tensor([s.score for s in segments], dtype=torch.float64)
    return score
