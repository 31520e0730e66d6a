"""The shipped English paraphrase index is self-sufficient: METEOR 1.5's default scores without pycocoevalcap.

The expected numbers are the jar's own (``examples/jar-scores.json``: pycocoevalcap 1.2's meteor-1.5.jar on
examples/hyp.txt and ref.txt). pycocoevalcap is hidden from a child process by an import hook, so the
test is the same whether or not it is installed here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from meteor_metric.meteor15 import paraphrase as pp
from meteor_metric.meteor15.paraphrase_index import mapped_index, read_header

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
JAR = json.loads((EXAMPLES / "jar-scores.json").read_text(encoding="utf-8"))
LICENCE = REPO / "meteor_metric" / "resources" / "LICENSE-METEOR-RESOURCES.txt"

# A child that cannot find pycocoevalcap (find_spec returns None for it), then runs the given code.
HIDE_PYCOCOEVALCAP = """\
import importlib.util, sys
_find = importlib.util.find_spec
importlib.util.find_spec = lambda name, *a, **k: None if name.split(".")[0] == "pycocoevalcap" else _find(name, *a, **k)
class _Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "pycocoevalcap":
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, _Hide())
"""


def run_hidden(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "METEOR_METRIC_CACHE": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-c", HIDE_PYCOCOEVALCAP + code], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


def test_cli_scores_the_example_without_pycocoevalcap(tmp_path):
    proc = run_hidden("from meteor_metric.meteor15.paraphrase import find_paraphrase_table, ParaphraseTableNotFound\n"
                      "try:\n    find_paraphrase_table('en'); sys.exit('pycocoevalcap table still visible')\n"
                      "except ParaphraseTableNotFound:\n    pass\n"
                      "from meteor_metric.cli.main import main\n"
                      "sys.exit(main(['score', '--hyp', 'examples/hyp.txt', '--ref', 'examples/ref.txt', '-b']))\n",
                      tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert float(proc.stdout) == JAR["one_ref"]["final_score"] and proc.stdout.strip() == "0.4231303650233356"
    assert proc.stderr == ""  # nothing compiled, nothing announced
    assert not list((tmp_path / "cache").glob("*.idx"))


def test_pickled_scorer_maps_the_shipped_index_without_its_table(tmp_path):
    proc = run_hidden("import pickle\n"
                      "from meteor_metric.meteor15.paraphrase import load_paraphrase_table\n"
                      "table = load_paraphrase_table('en')\n"
                      "copy = pickle.loads(pickle.dumps(table))\n"
                      "print(copy.index_path == table.index_path, len(copy), copy.fingerprint)\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "5274084", "5274084:c147ac7d2c91f2fb"]


def test_a_damaged_shipped_index_with_no_table_says_what_to_do(tmp_path):
    damaged = tmp_path / "paraphrase-en.idx"
    data = bytearray(pp.shipped_indexes()[0].read_bytes())
    lo, hi = read_header(data).sections["tok"]
    data[(lo + hi) // 2] ^= 0x04
    damaged.write_bytes(bytes(data))
    proc = run_hidden("from meteor_metric.meteor15 import paraphrase as pp\n"
                      f"pp.shipped_indexes = lambda: [pp.Path({str(damaged)!r})]\n"
                      "from meteor_metric import Meteor\n"
                      "try:\n    Meteor().sentence_score('a', ['a'])\n"
                      "except pp.ParaphraseIndexError as exc:\n    print(exc)\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "damaged (checksum mismatch in section(s) tok)" in proc.stdout
    assert "reinstall meteor-metric" in proc.stdout and "--paraphrase-table" in proc.stdout


def test_the_index_records_its_provenance_and_licence():
    """The index's header holds the source table's sha256; the package's licence file names the same
    table and digest and carries METEOR's LGPL 2.1 text (both are package data and licence files)."""
    [index] = pp.shipped_indexes()
    with mapped_index(index) as mm:
        head = read_header(mm)
        source = bytes(mm[slice(*head.sections["source"])]).decode()
    assert head.sha256 == JAR["provenance"]["paraphrase_en_sha256"]
    assert source == "pycocoevalcap 1.2: pycocoevalcap/meteor/data/paraphrase-en.gz"
    text = LICENCE.read_text(encoding="utf-8")
    assert f"sha256 {head.sha256}" in text and "paraphrase/paraphrase-en.idx" in text
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in text and "Version 2.1, February 1999" in text
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert "meteor_metric/resources/LICENSE-METEOR-RESOURCES.txt" in pyproject


def test_a_given_table_is_still_used(tmp_path):
    """A user-supplied table (the test suite's small one) is compiled and used instead of the shipped index."""
    mini = REPO / "tests" / "data" / "paraphrase-mini.gz"
    if not mini.is_file():
        pytest.skip(f"{mini} is not in this checkout")
    table = pp.load_paraphrase_table("en", mini, tmp_path)
    assert table.source == mini and table.index_path.parent == tmp_path and len(table) < 1000
