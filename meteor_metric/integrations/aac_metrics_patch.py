"""aac-metrics' METEOR (audio captioning, DCASE) without Java: :func:`meteor` and a patch for ``aac_metrics``.

:func:`meteor` takes the arguments of ``aac_metrics.functional.meteor.meteor`` and returns the same structure
(``({"meteor": corpus tensor}, {"meteor": per-caption tensor})``, float64; the corpus tensor alone with
``return_all_scores=False``), computed as aac-metrics' jar call computes it: ``meteor-1.5.jar -stdio -l LANG -norm
[-p PARAMS] [-w WEIGHTS]`` with pycocoevalcap's line protocol. ``cache_path``, ``java_path``, ``java_max_memory``
and ``use_shell`` are accepted and unused (no Java, no jar).

:func:`patch_aac_metrics` binds it wherever aac-metrics looks ``meteor`` up: ``aac_metrics.functional.meteor``
(the function and its module's name), the ``METEOR`` class (``aac_metrics.classes.meteor``), and
``aac_metrics.functional.evaluate`` (``evaluate(metrics=["meteor"])``). Not replaced: aac-metrics' PTB
preprocessing in ``evaluate()`` and its SPICE/SPIDEr, which still run Java.
"""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from ..meteor15.meteor import Meteor
from .coco import protocol_fields

__all__ = ["meteor", "patch_aac_metrics", "unpatch_aac_metrics", "aac_metrics_patched", "SUPPORTED_LANGUAGES"]

#: aac-metrics' ``SUPPORTED_LANGUAGES`` for METEOR
SUPPORTED_LANGUAGES = ("en", "cz", "de", "es", "fr")

#: modules of aac-metrics whose global ``meteor`` the patch rebinds
PATCHED_MODULES = ("aac_metrics.functional.meteor", "aac_metrics.classes.meteor", "aac_metrics.functional.evaluate")

_originals: dict[tuple[str, str], object] = {}


@lru_cache(maxsize=8)
def _scorer(language: str, parameters: Optional[tuple[float, ...]], weights: Optional[tuple[float, ...]]) -> Meteor:
    return Meteor(language, parameters=parameters, weights=weights)


def _four(name: str, values: Optional[Iterable[float]]) -> Optional[tuple[float, ...]]:
    """aac-metrics' check of ``params``/``weights`` (4 numbers), as floats the jar would parse."""
    if values is None:
        return None
    values = [float(v) for v in values]
    if len(values) != 4:
        raise ValueError(f"Invalid argument {name}={values}. (expected 4 params but found {len(values)})")
    return tuple(values)


def _checked(candidates: object, mult_references: object) -> list[tuple[str, list[str]]]:
    """(candidate, references) pairs as the jar receives them; a ``TypeError``/``ValueError`` naming the caption."""
    if isinstance(candidates, str) or not isinstance(candidates, (list, tuple)):
        raise TypeError(f"candidates must be a list of strings, got {type(candidates).__name__}")
    if isinstance(mult_references, str) or not isinstance(mult_references, (list, tuple)):
        raise TypeError(f"mult_references must be a list of lists of strings, got {type(mult_references).__name__}")
    if len(candidates) != len(mult_references):
        raise ValueError(f"candidates and mult_references differ in length: {len(candidates)} != "
                         f"{len(mult_references)}")
    pairs = []
    for k, (candidate, refs) in enumerate(zip(candidates, mult_references)):
        if not isinstance(candidate, str):
            raise TypeError(f"candidate {k}: must be a string, got {type(candidate).__name__}")
        if isinstance(refs, str):
            raise TypeError(f"candidate {k}: references must be a list of strings, got a single string "
                            f"{refs[:60]!r} (put it in a list)")
        if not isinstance(refs, (list, tuple)) or not refs:
            raise TypeError(f"candidate {k}: references must be a non-empty list of strings, got "
                            f"{refs!r:.60}")
        for j, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise TypeError(f"candidate {k}: reference {j} must be a string, got {type(ref).__name__}")
        hyp, fields = protocol_fields(candidate, refs)
        if not hyp or not all(fields):
            raise ValueError(f"candidate {k}: empty candidate or reference after the jar's line protocol ('|||' "
                             "removed, Java trim); the jar cannot score it, give non-empty text")
        pairs.append((hyp, fields))
    if not pairs:
        raise ValueError("meteor needs at least one candidate")
    return pairs


def meteor(candidates: list[str], mult_references: list[list[str]], return_all_scores: bool = True,
           cache_path: Union[str, Path, None] = None, java_path: Union[str, Path, None] = None,
           java_max_memory: str = "2G", language: str = "en", use_shell: Optional[bool] = None,
           params: Optional[Iterable[float]] = None, weights: Optional[Iterable[float]] = None, verbose: int = 0):
    """aac-metrics' ``meteor`` in pure Python (see the module docstring)."""
    import torch

    if language not in SUPPORTED_LANGUAGES:
        raise ValueError(f"Invalid argument language={language!r}. (expected one of {SUPPORTED_LANGUAGES})")
    scorer = _scorer(language, _four("params", params), _four("weights", weights))
    pairs = _checked(candidates, mult_references)
    corpus = scorer.corpus_score([h for h, _ in pairs], [r for _, r in pairs])
    score = torch.as_tensor(corpus.score, dtype=torch.float64)
    if not return_all_scores:
        return score
    return {"meteor": score}, {"meteor": torch.as_tensor(corpus.segment_scores, dtype=torch.float64)}


def _modules() -> list:
    try:
        importlib.import_module("aac_metrics")
    except ImportError as exc:
        raise ImportError(f"aac-metrics is not installed ({exc}): pip install aac-metrics") from None
    return [sys.modules[name] for name in PATCHED_MODULES if name in sys.modules]


def patch_aac_metrics() -> None:
    """Make aac-metrics' ``meteor`` and ``METEOR`` use :func:`meteor` (no Java). Idempotent;
    :func:`unpatch_aac_metrics` undoes it."""
    targets = [(module, "meteor") for module in _modules()] + [(sys.modules["aac_metrics.functional"], "meteor")]
    for module, attr in targets:
        current = getattr(module, attr)
        if current is not meteor:
            _originals[(module.__name__, attr)] = current
            setattr(module, attr, meteor)


def unpatch_aac_metrics() -> None:
    """aac-metrics' own (Java) ``meteor`` again. Does nothing when not patched."""
    for (module_name, attr), original in list(_originals.items()):
        setattr(sys.modules[module_name], attr, original)
        del _originals[(module_name, attr)]


@contextmanager
def aac_metrics_patched() -> Iterator[None]:
    """:func:`patch_aac_metrics` for a ``with`` block; on leaving it, aac-metrics is as it was before."""
    was_patched = bool(_originals)
    patch_aac_metrics()
    try:
        yield
    finally:
        if not was_patched:
            unpatch_aac_metrics()
