"""``python -m meteor_metric.coco run``: run a Python program with pycocoevalcap and aac-metrics patched, no code
edit.

    python -m meteor_metric.coco run [--no-spice] script.py [args ...]
    python -m meteor_metric.coco run [--no-spice] -m package.module [args ...]

The program runs in this process, as ``python script.py`` / ``python -m package.module`` would run it
(``sys.argv``, ``sys.path[0]``, ``__main__``), after :func:`patch_pycocoevalcap` (``--no-spice``: with
``spice=False``) and :func:`patch_aac_metrics`, each where its package is installed (aac-metrics, slow to import,
is patched when the program imports it). Launchers that start new Python processes patch each one when they run this module:
``accelerate launch -m meteor_metric.coco run -m lmms_eval ...``.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import runpy
import sys
from typing import Callable, Optional, Sequence

from .aac_metrics_patch import patch_aac_metrics
from .pycocoevalcap_patch import patch_pycocoevalcap

USAGE = """\
usage: python -m meteor_metric.coco run [--no-spice] script.py [args ...]
       python -m meteor_metric.coco run [--no-spice] -m module [args ...]

Runs a Python program with pycocoevalcap's METEOR and PTB tokenizer, and aac-metrics' METEOR, replaced by
meteor-metric's pure-Python ones (no Java for them), for each of the two packages that is installed.
--no-spice also leaves SPICE out of pycocoevalcap's COCOEvalCap.evaluate() (SPICE needs Java)."""


class PatchOnImport(importlib.abc.MetaPathFinder):
    """Calls ``patch`` once the package ``name`` has been imported (its ``__init__`` executed)."""

    def __init__(self, name: str, patch: Callable[[], None]):
        self.name, self.patch = name, patch

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        load = spec.loader.exec_module

        def exec_module(module) -> None:
            load(module)
            self.patch()
        spec.loader.exec_module = exec_module
        return spec


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if args[:1] != ["run"]:
        print(USAGE + "\n\nmeteor_metric.coco: error: the only command is 'run'", file=sys.stderr)
        return 2
    args = args[1:]
    spice = "--no-spice" not in args[:1]
    args = args[0 if spice else 1:]
    module = args[:1] == ["-m"]
    target = args[1:2] if module else args[:1]
    if not target:
        print(USAGE + "\n\nmeteor_metric.coco: error: give a script or -m module to run", file=sys.stderr)
        return 2
    missing = (importlib.util.find_spec(target[0]) is None) if module else not os.path.isfile(target[0])
    if missing:
        print(f"meteor_metric.coco: error: {'no module named' if module else 'cannot open file'} {target[0]!r}",
              file=sys.stderr)
        return 2
    installed = [name for name in ("pycocoevalcap", "aac_metrics") if importlib.util.find_spec(name) is not None]
    if not installed:
        print("meteor_metric.coco: error: neither pycocoevalcap nor aac-metrics is installed: nothing to patch",
              file=sys.stderr)
        return 2
    if "pycocoevalcap" in installed:
        patch_pycocoevalcap(spice=spice)
    if "aac_metrics" in installed:
        sys.meta_path.insert(0, PatchOnImport("aac_metrics", patch_aac_metrics))
    program_args = args[2:] if module else args[1:]
    if module:
        sys.argv = [target[0], *program_args]  # runpy puts the module's file name in argv[0]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(target[0], run_name="__main__", alter_sys=True)
    else:
        sys.argv = [target[0], *program_args]
        sys.path.insert(0, os.path.dirname(os.path.abspath(target[0])))
        runpy.run_path(target[0], run_name="__main__")
    return 0
