"""METEOR 1.5 in pure Python: exact with the Java reference implementation.

>>> from meteor_metric import Meteor
>>> Meteor().sentence_score("the cat sat on the mat", "the cat sat on the mat").score
1.0
"""

from os.path import abspath as _abspath, dirname as _dirname

from .core.alignment import Match
from .core.results import CorpusResult, SegmentResult
from .core.stats import MeteorStats
from .meteor15.meteor import Meteor
from .meteor15.params import MeteorParams, resolve_params
from .profiles.registry import PROFILES, get_scorer
from .version import __version__

#: The folder to give ``evaluate.load``: the installed package is itself an evaluate module.
EVALUATE_MODULE = _dirname(_abspath(__file__))


def load_metric(profile: str = "default", **load_kwargs):
    """``evaluate.load(EVALUATE_MODULE, profile, **load_kwargs)``: the metric, offline.

    ``profile`` becomes the metric's default profile (``meteor-1.5``, ``nltk`` or ``original``);
    ``load_kwargs`` go to ``evaluate.load`` (``num_process``, ``process_id``, ``keep_in_memory``, ...).
    """
    import evaluate

    return evaluate.load(EVALUATE_MODULE, profile, **load_kwargs)


__all__ = ["Meteor", "MeteorParams", "MeteorStats", "Match", "SegmentResult", "CorpusResult",
           "resolve_params", "PROFILES", "get_scorer", "EVALUATE_MODULE", "load_metric", "__version__"]
