"""METEOR 1.5 in pure Python: exact with the Java reference implementation.

>>> from meteor_metric import Meteor
>>> Meteor().sentence_score("the cat sat on the mat", "the cat sat on the mat").score
1.0
"""

__version__ = "0.1.0"

from .aligner import Match  # noqa: E402
from .meteor import CorpusResult, Meteor, SegmentResult  # noqa: E402
from .params import MeteorParams, resolve_params  # noqa: E402
from .stats import MeteorStats  # noqa: E402

__all__ = ["Meteor", "MeteorParams", "MeteorStats", "Match", "SegmentResult", "CorpusResult",
           "resolve_params", "__version__"]
