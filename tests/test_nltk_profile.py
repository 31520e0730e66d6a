"""The ``nltk`` profile against its oracle, ``nltk.translate.meteor_score.meteor_score`` of NLTK 3.10.4
with WordNet 3.0 (tests/data/nltk/provenance.json).

The goldens were produced by NLTK itself with nltk_data installed; these tests run without nltk_data.
Every score must be bit-identical (``==``). Rows use ``str.split()`` tokens, hence ``tokenizer="split"``.
tests/data/nltk holds all edge cases and about 1,000 rows of each real-data file
(scripts/copy_nltk_conformance.py); the full files in ../shared/conformance/nltk are checked when present.
"""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from nltk.tokenize import word_tokenize

import meteor_metric.profiles.nltk_profile
from conformance import DATA, SHARED, read_jsonl
from meteor_metric import MeteorStats, __version__
from meteor_metric.profiles.nltk_profile import NltkMeteor
from meteor_metric.meteor15.nltk_wordnet import NltkWordNet, NltkWordNetError

NLTK_DATA = DATA / "nltk"
SAMPLES = ["edge_cases.jsonl.gz", "tedtalks_zh-en.sample.jsonl.gz", "flickr8k_cf.sample.jsonl.gz"]
FULL = ["edge_cases.jsonl.gz", "tedtalks_zh-en.jsonl.gz", "flickr8k_cf.jsonl.gz"]
STAGES = {"exact": 0, "stem": 1, "wordnet": 2}


@lru_cache(maxsize=None)
def scorer(alpha: float, beta: float, gamma: float) -> NltkMeteor:
    return NltkMeteor(alpha, beta, gamma, tokenizer="split")


def row_scorer(row: dict) -> NltkMeteor:
    p = row["params"]
    return scorer(p["alpha"], p["beta"], p["gamma"])


def score_mismatches(rows) -> tuple[int, list[str]]:
    """Rows checked, and the ids whose score or best reference is not NLTK's."""
    n, bad = 0, []
    for row in rows:
        n += 1
        got = row_scorer(row).sentence_score(row["hyp"], row["refs"])
        if got.score != row["expected"]["score"] or got.best_ref != row["expected"]["best_ref"]:
            bad.append(row["id"])
    return n, bad


@pytest.mark.parametrize("name", SAMPLES)
def test_scores_bitwise(name):
    n, bad = score_mismatches(read_jsonl(NLTK_DATA / name))
    assert n > 300 and not bad, bad[:10]


def test_pretokenized_scores_bitwise():
    """``score_tokens`` is ``meteor_score`` on the golden token lists."""
    for row in read_jsonl(NLTK_DATA / "edge_cases.jsonl.gz"):
        got = row_scorer(row).score_tokens(row["hyp_tokens"], row["refs_tokens"])
        assert got == row["expected"]["score"], row["id"]


def _per_ref_rows():
    for name in SAMPLES:
        for k, row in enumerate(read_jsonl(NLTK_DATA / name)):
            if name.startswith("edge") or k % 10 == 0:
                yield row


def test_per_reference_alignment():
    """Against each reference alone: NLTK's single_meteor_score, its matches (with stage) and chunks."""
    checked = 0
    for row in _per_ref_rows():
        for ref, want in zip(row["refs"], row["expected"]["per_ref"]):
            got = row_scorer(row).sentence_score(row["hyp"], ref)
            assert got.score == want["score"], row["id"]
            assert got.chunks == got.stats.chunks == want["chunks"], row["id"]
            assert got.stats.test_word_matches == want["n_matches"], row["id"]
            assert sorted((m.hyp_start, m.ref_start, m.module) for m in got.alignment) == \
                sorted((h, r, STAGES[s]) for h, r, s in want["matches"]), row["id"]
            checked += 1
    assert checked > 1000


def test_segment_result_fields():
    m = NltkMeteor(tokenizer="split")
    got = m.sentence_score("the quick cats sat", ["a dog", "The fast cat sat down"])
    assert got.best_ref == 1 and got.hyp_tokens == ("the", "quick", "cats", "sat")
    assert got.ref_tokens == ("the", "fast", "cat", "sat", "down")
    assert [(a.ref_start, a.hyp_start, a.module) for a in got.alignment] == [(0, 0, 0), (1, 1, 2), (2, 2, 1), (3, 3, 0)]
    assert got.stats == MeteorStats(4, 5, 0, 0, (2, 1, 1), (2, 1, 1), (0, 0, 0), (0, 0, 0), 1, 4, 4)
    assert (got.precision, got.recall, got.chunks) == (1.0, 0.8, 1)
    assert got.fmean == 1.0 * 0.8 / (0.9 * 1.0 + (1 - 0.9) * 0.8)
    assert got.score == (1 - 0.5 * 0.25 ** 3.0) * got.fmean
    empty = m.sentence_score("", "a b")  # NLTK: ZeroDivisionError -> 0.0
    assert (empty.score, empty.precision, empty.recall, empty.fmean, empty.fragmentation_penalty) == (0.0,) * 5


def test_corpus_score_is_numpy_mean():
    """Hugging Face's ``meteor`` reports ``np.mean`` of the segment scores."""
    rows = list(read_jsonl(NLTK_DATA / "flickr8k_cf.sample.jsonl.gz"))
    m = NltkMeteor(tokenizer="split")
    result = m.corpus_score([r["hyp"] for r in rows], [r["refs"] for r in rows])
    scores = [r["expected"]["score"] for r in rows]
    assert result.segment_scores == scores
    assert result.score == float(np.mean(scores))
    assert result.precision == float(np.mean([s.precision for s in result.segments]))
    assert result.stats == MeteorStats.sum(s.stats for s in result.segments)
    assert result.signature == m.signature.replace(f"|version:{__version__}", f"|nrefs:var|version:{__version__}")


def test_signature():
    assert NltkMeteor().signature == \
        f"meteor-nltk|nltk:3.10.4-compatible|a:0.9,b:3.0,g:0.5|tok:word_tokenize+punkt|wn:3.0|version:{__version__}"
    assert "|tok:word_tokenize_line|" in NltkMeteor(tokenizer="word_tokenize_line").signature
    assert "a:0.85,b:0.2,g:0.6|tok:split" in NltkMeteor(0.85, 0.2, 0.6, tokenizer="split").signature
    assert NltkMeteor().corpus_score(["a"], ["a"]).signature.endswith(f"|nrefs:1|version:{__version__}")


@pytest.mark.parametrize("text", [
    "The U.S.-based company's profits rose 3,000 dollars... \"It's great,\" he said.",
    "Don't stop. Mr. Smith can't go!  (Really?) [yes] {no} -- ok; 'quoted' ``tex''",
    "First sentence. Second one? Third!", "", "   ", "naïve café 東京 résumé\tTabs\nnewline",
])
def test_word_tokenize_line_mode(text):
    """``word_tokenize_line`` is NLTK's own ``word_tokenize(text, preserve_line=True)`` (no Punkt);
    the default (Punkt first) is checked against HF's module in test_hf_meteor.py."""
    want = tuple(t.lower() for t in word_tokenize(text, preserve_line=True))
    m = NltkMeteor(tokenizer="word_tokenize_line")
    assert m.tokens(text) == want
    assert m.sentence_score(text, "x").hyp_tokens == want


@pytest.mark.parametrize("call, error, message", [
    (lambda m: m.sentence_score(None, "a"), TypeError, "hypothesis must be a string"),
    (lambda m: m.sentence_score("a", []), ValueError, "references is empty"),
    (lambda m: m.sentence_score("a", ["b", 3]), TypeError, r"references\[1\] must be a string"),
    (lambda m: m.corpus_score(["a", "b"], ["a"]), ValueError, "2 hypotheses but 1 references"),
    (lambda m: m.corpus_score(["a", "b"], ["a", None]), TypeError, r"references\[1\]"),
    (lambda m: m.corpus_score([], []), ValueError, "empty corpus"),
    (lambda m: m.corpus_score("a b", ["a b"]), TypeError, "hypotheses must be a list"),
    (lambda m: m.score_tokens("a b", [["a"]]), TypeError, "pre-tokenized"),
    (lambda m: m.score_tokens(["a"], []), TypeError, "non-empty list"),
    (lambda m: m.score_tokens(["a"], [["a", None]]), TypeError, r"refs_tokens\[0\]\[1\]"),
    (lambda m: NltkMeteor(alpha="0.9"), TypeError, "alpha must be a number"),
    (lambda m: NltkMeteor(beta=float("nan")), ValueError, "beta must be finite"),
    (lambda m: NltkMeteor(gamma=True), TypeError, "gamma must be a number"),
    (lambda m: NltkMeteor(tokenizer="punkt"), ValueError, "tokenizer must be one of"),
])
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call(NltkMeteor())


def test_wordnet_table_errors(tmp_path):
    bad = tmp_path / "t.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(NltkWordNetError, match="corrupt"):
        NltkWordNet.load(bad)
    with pytest.raises(NltkWordNetError, match="cannot be read"):
        NltkWordNet.load(tmp_path / "missing.gz")


def test_wordnet_table_loads_once_across_threads():
    tables = []
    threads = [threading.Thread(target=lambda: tables.append(NltkWordNet.shipped())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(tables) == 4 and all(t is tables[0] for t in tables)
    assert {"car", "auto", "automobile"} <= NltkWordNet.shipped().synonyms("car")
    assert NltkWordNet.shipped().synonyms("larg") == {"larg"}  # the Porter stem of "large"


def test_runs_without_nltk_data(tmp_path):
    """Importing and scoring needs no nltk_data: NLTK_DATA is an empty folder and HOME is empty."""
    (tmp_path / "data").mkdir()
    (tmp_path / "home").mkdir()
    code = (
        "import nltk\n"
        "from meteor_metric.profiles.nltk_profile import NltkMeteor\n"
        "try:\n"
        "    nltk.data.find('corpora/wordnet')\n"
        "    raise SystemExit('wordnet found')\n"
        "except LookupError:\n"
        "    pass\n"
        "r = NltkMeteor().sentence_score('The car is quick.', 'An auto is fast.')\n"
        "print(r.score, sorted(a.module for a in r.alignment))\n")
    env = {**os.environ, "NLTK_DATA": str(tmp_path / "data"), "HOME": str(tmp_path / "home")}
    root = Path(meteor_metric.profiles.nltk_profile.__file__).parents[2]
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    score, modules = out.stdout.split(" ", 1)
    want = NltkMeteor().sentence_score("The car is quick.", "An auto is fast.")
    assert float(score) == want.score and json.loads(modules) == [0, 0, 2, 2]


def test_docstring_examples():
    result = doctest.testmod(meteor_metric.profiles.nltk_profile, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.skipif(not (SHARED / "nltk").is_dir(), reason="../shared/conformance/nltk not present")
@pytest.mark.parametrize("name", FULL)
def test_full_shared_files(name):
    n, bad = score_mismatches(read_jsonl(SHARED / "nltk" / name))
    assert n > 300 and not bad, f"{len(bad)} of {n} rows differ: {bad[:10]}"
