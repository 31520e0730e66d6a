"""``meteor_metric.index_cache``: the indexes on disk, as ``meteor-metric cache`` shows and clears them.

The table is ``data/paraphrase-mini.gz`` (989 entries of pycocoevalcap's ``paraphrase-en.gz``: 2,967
lines of probability, reference phrase, paraphrase); the shipped index is checked against the sha256
of the ``paraphrase-en.gz`` that pycocoevalcap 1.2 installs (skipped without it).
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from meteor_metric.meteor15 import index_cache
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound, find_paraphrase_table
from meteor_metric.meteor15.paraphrase_index import read_header

MINI = Path(__file__).parent / "data" / "paraphrase-mini.gz"
PYCOCOEVALCAP_EN_SHA256 = "c147ac7d2c91f2fbb3ad31e4b352235061eb83145e0434daf217ee9ca5975f48"


def mini_entries() -> int:
    lines = gzip.open(MINI, "rt", encoding="utf-8").read().split("\n")
    return len([line for line in lines if line]) // 3


def test_prepare_lists_and_clears(tmp_path):
    cache = tmp_path / "cache"
    table = index_cache.prepare(paraphrase_table=MINI, cache_dir=cache)
    (cache / "unrelated.txt").write_text("not ours")
    listed = [f for f in index_cache.list_indexes(cache) if not f.shipped]
    assert [f.path for f in listed] == [table.index_path]
    entry = listed[0]
    assert entry.valid and entry.problem == ""
    assert entry.table_sha256 == hashlib.sha256(MINI.read_bytes()).hexdigest()
    assert entry.entries == mini_entries() == 989
    assert Path(entry.source).resolve() == MINI.resolve()
    assert entry.bytes == table.index_path.stat().st_size

    size = table.index_path.stat().st_size
    removed = dict(index_cache.clear_cache(cache).removed)
    assert removed[table.index_path] == size and all(p.name.startswith("paraphrase-") for p in removed)
    assert sorted(p.name for p in cache.iterdir()) == ["unrelated.txt"]
    assert index_cache.clear_cache(tmp_path / "never-made").removed == []


def test_damage_is_shown(tmp_path):
    table = index_cache.prepare(paraphrase_table=MINI, cache_dir=tmp_path)
    data = bytearray(table.index_path.read_bytes())
    lo, hi = read_header(bytes(data)).sections["tok"]
    data[(lo + hi) // 2] ^= 0xFF
    table.index_path.write_bytes(bytes(data))
    entry = index_cache.inspect_index(table.index_path)
    assert not entry.valid and entry.problem == "damaged sections: tok"
    table.index_path.write_bytes(b"\0" * 10)
    assert index_cache.inspect_index(table.index_path).problem == "shorter than an index header"


def test_shipped_index_is_sound_and_names_its_table():
    shipped = [f for f in index_cache.list_indexes() if f.shipped]
    assert [f.path.name for f in shipped] == ["paraphrase-en.idx"]
    assert shipped[0].valid
    assert shipped[0].table_sha256 == PYCOCOEVALCAP_EN_SHA256
    assert shipped[0].source.startswith("pycocoevalcap 1.2")
    try:
        table = find_paraphrase_table("en")
    except ParaphraseTableNotFound:
        pytest.skip("pycocoevalcap (paraphrase-en.gz) not installed")
    assert hashlib.sha256(table.read_bytes()).hexdigest() == PYCOCOEVALCAP_EN_SHA256


def test_prepare_names_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.delenv("METEOR_METRIC_PARAPHRASE_DIR", raising=False)
    with pytest.raises(ParaphraseTableNotFound, match="paraphrase-de.gz"):
        index_cache.prepare("de", cache_dir=tmp_path)
