"""The reworked compiler against stored digests of the pre-rework compiler's sections
(scripts/build_paraphrase_build_digests.py), for every chunk size, and against the shipped index."""
from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from meteor_metric import paraphrase_build

DATA = Path(__file__).parent / "data"
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
