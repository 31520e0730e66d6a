"""The corpus the framework adapters are tested on: tests/data/frameworks/tedtalks_zh-en.systems.jsonl.gz
(120 segments of WMT21 TED talks zh-en, 4 MT systems, 2 references each; its first line says where from)."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache

from conformance import DATA

SYSTEMS_FILE = DATA / "frameworks" / "tedtalks_zh-en.systems.jsonl.gz"


@lru_cache(maxsize=None)
def systems() -> tuple[dict[str, list[str]], list[list[str]]]:
    """(system name -> its hypotheses, the references of each segment)."""
    with gzip.open(SYSTEMS_FILE, "rt", encoding="utf-8") as f:
        header, *rows = (json.loads(line) for line in f)
    hyps = {name: [row["hyps"][name] for row in rows] for name in header["systems"]}
    return hyps, [row["refs"] for row in rows]


def corpus() -> tuple[list[str], list[list[str]]]:
    """One system's hypotheses and the two references of each segment."""
    hyps, refs = systems()
    return hyps["DIDI-NLP"], refs
