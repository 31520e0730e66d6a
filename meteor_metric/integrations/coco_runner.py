"""``python -m meteor_metric.coco run``: run a Python program with pycocoevalcap patched, no code edit.

    python -m meteor_metric.coco run [--no-spice] script.py [args ...]
    python -m meteor_metric.coco run [--no-spice] -m package.module [args ...]

The program runs in this process, as ``python script.py`` / ``python -m package.module`` would run it
(``sys.argv``, ``sys.path[0]``, ``__main__``), after :func:`patch_pycocoevalcap` (``--no-spice``: with
``spice=False``). Launchers that start new Python processes patch each one when they run this module:
``accelerate launch -m meteor_metric.coco run -m lmms_eval ...``.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Optional, Sequence

from .pycocoevalcap_patch import patch_pycocoevalcap

USAGE = """\
usage: python -m meteor_metric.coco run [--no-spice] script.py [args ...]
       python -m meteor_metric.coco run [--no-spice] -m module [args ...]

Runs a Python program with pycocoevalcap's METEOR and PTB tokenizer replaced by meteor-metric's pure-Python
ones (no Java for them). --no-spice also leaves SPICE out of COCOEvalCap.evaluate() (SPICE needs Java)."""


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
    patch_pycocoevalcap(spice=spice)
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
