"""METEOR 1.5 in pure Python: exact with the Java reference implementation.

>>> from meteor_metric import Meteor
>>> Meteor().sentence_score("the cat sat on the mat", "the cat sat on the mat").score
1.0
"""

import os

from .version import __version__

#: The folder to give ``evaluate.load``: the installed package is itself an evaluate module.
EVALUATE_MODULE = os.path.dirname(os.path.abspath(__file__))

from .core.alignment import Match  # noqa: E402
from .core.results import CorpusResult, SegmentResult  # noqa: E402
from .meteor15.meteor import Meteor  # noqa: E402
from .meteor15.params import MeteorParams, resolve_params  # noqa: E402
from .profiles.registry import PROFILES, get_scorer  # noqa: E402
from .core.stats import MeteorStats  # noqa: E402


def load_metric(profile: str = "default", **load_kwargs):
    """``evaluate.load(EVALUATE_MODULE, profile, **load_kwargs)``: the metric, offline.

    ``profile`` becomes the metric's default profile (``meteor-1.5``, ``nltk`` or ``original``);
    ``load_kwargs`` go to ``evaluate.load`` (``num_process``, ``process_id``, ``keep_in_memory``, ...).
    """
    import evaluate

    return evaluate.load(EVALUATE_MODULE, profile, **load_kwargs)


__all__ = ["Meteor", "MeteorParams", "MeteorStats", "Match", "SegmentResult", "CorpusResult",
           "resolve_params", "PROFILES", "get_scorer", "EVALUATE_MODULE", "load_metric", "__version__"]
