"""Every ```python block of docs/frameworks.md runs as is, from the repository root (each needs the framework
its first line imports; a block skips, saying which, where that framework is not installed)."""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "frameworks.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), flags=re.M | re.S)


def test_the_page_has_one_block_per_framework():
    assert [block.splitlines()[0] for block in BLOCKS] == ["import torchmetrics", "import sacrebleu", "import lm_eval",
                                                          "import lighteval"]


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0].split()[1] for b in BLOCKS])
def test_block_runs(block, monkeypatch, capsys):
    framework = block.splitlines()[0].split()[1]
    if importlib.util.find_spec(framework) is None:
        pytest.skip(f"{framework} is not installed (its extra)")
    monkeypatch.chdir(ROOT)
    exec(compile(block, f"{PAGE.name}:{framework}", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out.strip()
