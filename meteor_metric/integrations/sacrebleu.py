"""METEOR 1.5 as a sacreBLEU metric: :class:`METEOR`, on sacreBLEU's 0-100 scale (like chrF and TER).

A segment's sufficient statistics are its contribution to the corpus sum of METEOR statistics (whole
numbers; :mod:`~meteor_metric.integrations.summable`), so sacreBLEU's ``corpus_score``, its bootstrap
confidence intervals and ``sacrebleu.significance.PairedTest`` (paired bootstrap and approximate
randomization) score every sample exactly as the jar scores a corpus. The ``nltk`` profile's statistics
are ``[segment score, 1]`` (its corpus score is the mean of the segment scores).

``sacrebleu`` is imported when this module is, never by ``import meteor_metric``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
from sacrebleu.metrics.base import Metric, Score, Signature

from ..profiles.registry import DEFAULT_PROFILE
from ..version import __version__
from .summable import SummableScorer


class METEORSignature(Signature):
    """sacreBLEU's signature plus ``meteor:`` (every setting that changes the number) and ``impl:``."""

    def __init__(self, args: dict) -> None:
        super().__init__(args)
        self._abbr.update({"meteor": "m", "impl": "i"})
        self.info.update({"meteor": args["meteor"].signature.rsplit("|version:", 1)[0],
                          "impl": f"meteor-metric-{__version__}"})


class METEORScore(Score):
    """A METEOR score on sacreBLEU's scale (100 x the corpus score)."""

    def __init__(self, score: float) -> None:
        super().__init__("METEOR", score)


class METEOR(Metric):
    """METEOR 1.5 for sacreBLEU: ``METEOR().corpus_score(hyps, [refs_1, refs_2, ...])``.

    ``profile`` and every keyword of :func:`~meteor_metric.get_scorer` (``language``, ``task``,
    ``normalization``, ``modules``, ...) choose the METEOR. The score is ``100 *`` the package's corpus
    score of the same segments. Reference streams follow sacreBLEU: ``None`` marks a missing reference.

    >>> METEOR().corpus_score(["the cat sat on the mat"], [["the cat sat on the mat"]]).score
    100.0
    """

    _SIGNATURE_TYPE = METEORSignature

    def __init__(self, profile: str = DEFAULT_PROFILE, references: Optional[Sequence[Sequence[str]]] = None,
                 **options: Any) -> None:
        super().__init__()
        self.meteor = SummableScorer(profile, **options)
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _preprocess_segment(self, sent: str) -> str:
        """METEOR normalizes and tokenizes text itself (the profile's ``normalization``)."""
        return sent

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        return {"refs": list(refs)}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict) -> list:
        refs = ref_kwargs["refs"]
        if not refs:
            raise ValueError("METEOR: a segment has no reference (every reference stream has None there)")
        return self.meteor.vector(self.meteor.scorer.sentence_score(hypothesis, refs))

    def _compute_score_from_stats(self, stats: Sequence[float]) -> METEORScore:
        """The score of statistics already summed over segments (sacreBLEU's resamples)."""
        return METEORScore(100 * self.meteor.score_of_sum(np.asarray(stats).tolist()))

    def _aggregate_and_compute(self, stats: Sequence[Sequence[float]]) -> METEORScore:
        """The score of per-segment statistics (rows): exactly the package's corpus score, x 100."""
        rows = np.asarray(stats)
        if not self.meteor.additive and rows.shape[0] > 0 and np.all(rows[:, 1] == 1):
            return METEORScore(100 * self.meteor.mean_of(rows[:, 0]))  # segments: np.mean, as corpus_score
        return self._compute_score_from_stats(rows.sum(axis=0))
