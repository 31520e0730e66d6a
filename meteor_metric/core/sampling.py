"""How a scorer's system score is recomputed on samples of segments (the ``sample_model`` hook).

Significance tests sum one number vector per segment over many samples at once (numpy) and map
each sum to a system score; each profile says how through its scorer's ``sample_model()``.
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from .results import SegmentResult


class SampleModel(Protocol):
    """How a profile turns a sample of segments into a system score, vectorized.

    ``rows`` gives one number vector per segment; ``scores`` maps sums of ``n`` rows (one sum per
    sample) to the system scores of those samples.
    """

    def rows(self, segments: Sequence[SegmentResult]) -> np.ndarray: ...

    def scores(self, sums: np.ndarray, n: int) -> np.ndarray: ...


class MeanModel:
    """Profiles whose system score is the mean of the segment scores (``nltk``)."""

    def rows(self, segments: Sequence[SegmentResult]) -> np.ndarray:
        return np.array([[s.score] for s in segments], dtype=np.float64).reshape(len(segments), 1)

    def scores(self, sums: np.ndarray, n: int) -> np.ndarray:
        return sums[:, 0] / n
