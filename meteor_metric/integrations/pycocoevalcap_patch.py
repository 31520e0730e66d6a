"""Make an installed pycocoevalcap 1.2 use this package's METEOR and PTB tokenizer: no Java for them.

:func:`patch_pycocoevalcap` replaces the two Java-backed classes wherever pycocoevalcap binds them:
``pycocoevalcap.eval.Meteor`` and ``pycocoevalcap.eval.PTBTokenizer`` (what ``COCOEvalCap.evaluate()`` looks up
when it runs, and what ``from pycocoevalcap.eval import Meteor, PTBTokenizer`` gives, lmms-eval's import),
``pycocoevalcap.meteor.meteor.Meteor`` and ``pycocoevalcap.tokenizer.ptbtokenizer.PTBTokenizer``. Code that
imported one of those names *before* the patch keeps the Java class: the patch warns, naming the module.

SPICE is not replaced: it needs Java and, on first use, downloads Stanford CoreNLP. Where Java is absent, leave it
out with ``spice=False``: ``COCOEvalCap.evaluate()`` then computes every other metric, and its ``eval``,
``imgToEval`` and ``evalImgs`` hold no ``SPICE`` entry. BLEU, ROUGE-L and CIDEr are pycocoevalcap's own
(pure Python already); they score the PTB tokens, which equal Java's (``tests/test_coco.py``).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from contextlib import contextmanager
from typing import Iterator

from .coco import Meteor, PTBTokenizer

__all__ = ["patch_pycocoevalcap", "unpatch_pycocoevalcap", "pycocoevalcap_patched", "leave_out_spice",
           "keep_spice", "is_patched", "SpiceLeftOut"]

#: (module, name) -> the replacement bound there by the patch
REPLACEMENTS = {("pycocoevalcap.eval", "Meteor"): Meteor,
                ("pycocoevalcap.eval", "PTBTokenizer"): PTBTokenizer,
                ("pycocoevalcap.meteor.meteor", "Meteor"): Meteor,
                ("pycocoevalcap.tokenizer.ptbtokenizer", "PTBTokenizer"): PTBTokenizer}

_originals: dict[tuple[str, str], object] = {}  # what the patch replaced, to put back
_spice_originals: dict[str, object] = {}  # Spice and COCOEvalCap.evaluate while SPICE is left out


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ImportError(f"pycocoevalcap is not installed ({exc}): pip install pycocoevalcap==1.2") from None


class SpiceLeftOut:
    """Stands in for pycocoevalcap's ``Spice`` while SPICE is left out: scores nothing (NaN), starts nothing;
    ``COCOEvalCap.evaluate()`` then drops the ``SPICE`` entries it recorded."""

    def method(self) -> str:
        return "SPICE (left out: meteor_metric.coco.patch_pycocoevalcap(spice=False))"

    def compute_score(self, gts, res) -> tuple[float, list[float]]:
        return float("nan"), [float("nan")] * len(gts)


def _evaluate_without_spice(original):
    def evaluate(self) -> None:
        original(self)
        self.eval.pop("SPICE", None)
        for image in self.imgToEval.values():
            image.pop("SPICE", None)
        self.setEvalImgs()
    evaluate.__doc__ = original.__doc__
    evaluate.__wrapped__ = original
    return evaluate


def leave_out_spice() -> None:
    """``COCOEvalCap.evaluate()`` without SPICE (no Java, no CoreNLP download): ``pycocoevalcap.eval.Spice``
    becomes :class:`SpiceLeftOut` and the results lose their ``SPICE`` entries. Idempotent."""
    evaluation = _module("pycocoevalcap.eval")
    if _spice_originals:
        return
    _spice_originals["Spice"] = evaluation.Spice
    _spice_originals["evaluate"] = evaluation.COCOEvalCap.evaluate
    evaluation.Spice = SpiceLeftOut
    evaluation.COCOEvalCap.evaluate = _evaluate_without_spice(evaluation.COCOEvalCap.evaluate)


def keep_spice() -> None:
    """Undo :func:`leave_out_spice` (pycocoevalcap's own SPICE again)."""
    if not _spice_originals:
        return
    evaluation = sys.modules["pycocoevalcap.eval"]
    evaluation.Spice = _spice_originals.pop("Spice")
    evaluation.COCOEvalCap.evaluate = _spice_originals.pop("evaluate")


def is_patched() -> bool:
    """Whether :func:`patch_pycocoevalcap` is in effect."""
    return bool(_originals)


def _early_bindings() -> list[str]:
    """``module.name`` of every loaded module outside pycocoevalcap still bound to a replaced Java class."""
    replaced = {id(obj) for obj in _originals.values()}
    found = []
    for name, module in list(sys.modules.items()):
        if name.startswith("pycocoevalcap") or module is None:
            continue
        namespace = getattr(module, "__dict__", None) or {}
        found += [f"{name}.{attr}" for attr, value in list(namespace.items()) if id(value) in replaced]
    return found


def patch_pycocoevalcap(spice: bool = True) -> None:
    """Make pycocoevalcap use this package's pure-Python ``Meteor`` and ``PTBTokenizer`` (see the module
    docstring for where). ``spice=False`` also leaves SPICE out (:func:`leave_out_spice`); ``spice=True`` keeps
    pycocoevalcap's Java SPICE. Idempotent; :func:`unpatch_pycocoevalcap` undoes it."""
    for (module_name, attr), replacement in REPLACEMENTS.items():
        module = _module(module_name)
        current = getattr(module, attr)
        if current is not replacement:
            _originals[(module_name, attr)] = current
            setattr(module, attr, replacement)
    if spice:
        keep_spice()
    else:
        leave_out_spice()
    early = _early_bindings()
    if early:
        warnings.warn(f"{', '.join(early)} imported pycocoevalcap's Java class before patch_pycocoevalcap() and "
                      "keeps it: call the patch before importing that module (or run the program with "
                      "'python -m meteor_metric.coco run')", RuntimeWarning, stacklevel=2)


def unpatch_pycocoevalcap() -> None:
    """Put pycocoevalcap's Java-backed classes (and SPICE) back. Does nothing when not patched."""
    for (module_name, attr), original in list(_originals.items()):
        setattr(sys.modules[module_name], attr, original)
        del _originals[(module_name, attr)]
    keep_spice()


@contextmanager
def pycocoevalcap_patched(spice: bool = True) -> Iterator[None]:
    """:func:`patch_pycocoevalcap` for a ``with`` block; on leaving it, pycocoevalcap is as it was before."""
    was_patched, spice_was_left_out = is_patched(), bool(_spice_originals)
    patch_pycocoevalcap(spice)
    try:
        yield
    finally:
        if not was_patched:
            unpatch_pycocoevalcap()
        if spice_was_left_out:
            leave_out_spice()
        else:
            keep_spice()
