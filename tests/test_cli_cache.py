"""``meteor-metric cache build|info|clear`` on a real table.

The table is ``data/paraphrase-mini.gz`` (989 entries cut from pycocoevalcap 1.2's ``paraphrase-en.gz``,
the jar's own table); its entry count is read from the table itself (3 lines per entry). The shipped
case needs pycocoevalcap's table (skipped without it); the jar-equivalence of indexes is tested in
test_paraphrase.py and test_index_integrity.py.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from meteor_metric.cli.main import main
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound, find_paraphrase_table
from meteor_metric.meteor15.paraphrase_index import read_header

MINI = Path(__file__).parent / "data" / "paraphrase-mini.gz"


def run(args: list[str], capsys) -> tuple[int, str, str]:
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


def mini_entries() -> int:
    return len([line for line in gzip.open(MINI, "rt", encoding="utf-8").read().split("\n") if line]) // 3


def test_build_info_clear(tmp_path, capsys):
    cache = tmp_path / "cache"
    (tmp_path / "cache").mkdir()
    (cache / "notes.txt").write_text("not ours")
    status, out, _ = run(["cache", "build", "--paraphrase-table", str(MINI), "--cache-dir", str(cache)], capsys)
    assert status == 0
    built = [p for p in cache.glob("paraphrase-*.idx")]
    assert len(built) == 1 and f"{built[0]} (in {cache}; {mini_entries():,} entries" in out

    status, out, _ = run(["cache", "info", "--cache-dir", str(cache), "--format", "json"], capsys)
    info = json.loads(out)
    cached = [i for i in info["indexes"] if not i["shipped"]]
    assert status == 0 and info["cache_dir"] == str(cache)
    assert [(i["path"], i["valid"], i["entries"], i["source"]) for i in cached] == \
        [(str(built[0]), True, 989, str(MINI.resolve()))]

    # a flipped byte inside the trie's tok section: info names it; the next use rebuilds
    data = bytearray(built[0].read_bytes())
    lo, hi = read_header(bytes(data)).sections["tok"]
    data[(lo + hi) // 2] ^= 0xFF
    built[0].write_bytes(bytes(data))
    status, out, _ = run(["cache", "info", "--cache-dir", str(cache)], capsys)
    assert status == 0 and "UNUSABLE (damaged sections: tok; rebuilt on next use)" in out
    assert run(["cache", "build", "--paraphrase-table", str(MINI), "--cache-dir", str(cache)], capsys)[0] == 0
    status, out, _ = run(["cache", "info", "--cache-dir", str(cache)], capsys)
    assert "UNUSABLE" not in out and "1 cached index," in out

    status, out, _ = run(["cache", "clear", "--cache-dir", str(cache)], capsys)
    assert status == 0 and out.startswith("removed ") and f"from {cache}" in out
    assert sorted(p.name for p in cache.iterdir()) == ["notes.txt"]
    assert run(["cache", "clear", "--cache-dir", str(cache)], capsys)[1] == f"removed 0 files (0 bytes) from {cache}\n"


def test_build_uses_the_shipped_english_index(tmp_path, capsys):
    try:
        find_paraphrase_table("en")
    except ParaphraseTableNotFound:
        pytest.skip("pycocoevalcap 1.2's paraphrase-en.gz is not installed")
    status, out, _ = run(["cache", "build", "--cache-dir", str(tmp_path)], capsys)
    assert status == 0 and "(shipped with the package; 5,274,084 entries" in out
    assert not list(tmp_path.glob("*.idx"))


@pytest.mark.parametrize("content, reason", [
    (b"root:x:0:0:root:/root:/bin/bash\n", "Not a gzipped file"),
    (MINI.read_bytes()[:5000], "Compressed file ended before the end-of-stream marker was reached"),
])
def test_a_file_that_is_not_a_table_is_a_usage_error_naming_it(tmp_path, capsys, content, reason):
    bad = tmp_path / "table.gz"
    bad.write_bytes(content)
    status, out, err = run(["cache", "build", "--paraphrase-table", str(bad), "--cache-dir", str(tmp_path)], capsys)
    assert status == 2 and out == ""
    assert err.startswith(f"meteor-metric: error: {bad} is not a gzip'd paraphrase table in METEOR's format")
    assert reason in err and not list(tmp_path.glob("*.idx"))


def test_a_language_without_a_table_names_the_flag(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("METEOR_METRIC_PARAPHRASE_DIR", raising=False)
    status, _, err = run(["cache", "build", "--lang", "de", "--cache-dir", str(tmp_path)], capsys)
    assert status == 1 and "no paraphrase table 'paraphrase-de.gz'" in err and "--paraphrase-table FILE" in err


def test_a_mistyped_action_gets_a_suggestion(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["cache", "biuld"])
    assert exc.value.code == 2 and "(did you mean build?)" in capsys.readouterr().err
