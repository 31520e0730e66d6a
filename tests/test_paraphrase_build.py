"""The reworked compiler against stored digests of the pre-rework compiler's sections
(scripts/build_paraphrase_build_digests.py), for every chunk size; and the shipped English index is
byte for byte what scripts/build_shipped_paraphrase_index.py compiles from pycocoevalcap 1.2's table
(skipped where pycocoevalcap is not installed)."""
from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric.meteor15 import paraphrase_build
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound, find_paraphrase_table
from meteor_metric.resources import resource_path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
DIGESTS = json.loads((DATA / "paraphrase_build_digests.json").read_text())


@pytest.mark.parametrize("chunk", [1 << 22, 1, 2, 7])
@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_sections_match_old_compiler(tmp_path, monkeypatch, name, chunk):
    monkeypatch.setattr(paraphrase_build, "_CHUNK", chunk)
    want = DIGESTS[name]
    if want["table"] is None:
        path = DATA / name
    else:
        path = tmp_path / "t.gz"
        path.write_bytes(gzip.compress(bytes.fromhex(want["table"])))
    c = paraphrase_build.compile_table(path)
    assert {k: hashlib.sha256(v).hexdigest() for k, v in c.sections.items()} == want["sections"]
    assert [c.entries, c.nodes, c.vocab, c.flags] == want["counts"]


def test_the_shipped_index_is_reproducible_from_pycocoevalcaps_table(tmp_path):
    try:
        find_paraphrase_table("en")
    except ParaphraseTableNotFound:
        pytest.skip("pycocoevalcap 1.2's paraphrase-en.gz is not installed")
    out = tmp_path / "paraphrase-en.idx"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_shipped_paraphrase_index.py"), "--out", str(out)],
                   check=True, capture_output=True)
    shipped = resource_path("paraphrase", "paraphrase-en.idx")
    assert hashlib.sha256(out.read_bytes()).digest() == hashlib.sha256(shipped.read_bytes()).digest()
