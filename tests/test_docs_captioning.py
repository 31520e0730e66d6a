"""docs/captioning.md: every ```python block runs as is from the repo root, with no java on PATH and a
``subprocess.Popen`` that refuses to start anything (the page's claim: no Java process). A block whose first
line imports an optional package that is absent is skipped, naming it; the outputs its comments show are checked."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "captioning.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
GUARD = ("import subprocess\n"
         "def _refuse(self, args, *rest, **kwargs):\n"
         "    raise RuntimeError(f'a process was started: {args!r}')\n"
         "subprocess.Popen.__init__ = _refuse\n")


def _first_line_imports(block: str) -> list[str]:
    node = ast.parse(block.splitlines()[0]).body[0]
    return [alias.name for alias in node.names] if isinstance(node, ast.Import) else []


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{k + 1}" for k in range(len(BLOCKS))])
def test_block_runs_without_java(block, tmp_path):
    missing = [name for name in _first_line_imports(block) if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    (tmp_path / "bin").mkdir()
    proc = subprocess.run([sys.executable, "-c", GUARD + block], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PATH=str(tmp_path / "bin")), timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for line in block.splitlines():  # "print(x)   # shown output" comments hold the exact output
        shown = re.match(r"print\(.*\)\s+# (\[.*\]|\{.*\})$", line)
        if shown:
            assert shown.group(1) in proc.stdout.splitlines(), line


def test_page_order():
    """The one-line patch first, then the command line, then the import switch."""
    text = PAGE.read_text(encoding="utf-8")
    heads = [h for h in re.findall(r"^## (.*)$", text, re.M)]
    assert heads[:3] == ["One line: patch pycocoevalcap", "Command line: `meteor-metric coco`",
                         "Two-line import switch"]
