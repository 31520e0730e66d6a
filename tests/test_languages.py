"""Every language of METEOR 1.5 against the jar: stats lines identical, scores within 1e-12.

tests/data/java15/languages/<lang>.jsonl.gz hold real-text pairs (translated man pages, Arabic UI
strings in Buckwalter, German MT outputs), each scored by the jar under every configuration of its
language (scripts/build_language_goldens.py; PROVENANCE.json there lists the arguments, the corpus
scores and how the jar refuses what it cannot do); <lang>.tokens.jsonl.gz the jar's -norm tokens of
every text. The live test runs the jar when Java is present.
"""

from __future__ import annotations

import json
import sys
import tempfile
import zipfile
from functools import lru_cache
from pathlib import Path

import pytest

from conformance import JAVA15, jar_args_to_params, read_jsonl
from meteor_metric import Meteor, MeteorParams, MeteorStats
from meteor_metric.meteor15.normalize import java_lower, normalize_line, tokenize

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import jar as jarlib  # noqa: E402  (benchmarks/jar.py: runs the jar, standard library only)

TOLERANCE = 1e-12  # the jar's Math.pow is not correctly rounded
LANG_DIR = JAVA15 / "languages"
PROVENANCE = json.loads((LANG_DIR / "PROVENANCE.json").read_text(encoding="utf-8"))
LANGUAGES = sorted(PROVENANCE["languages"])
CASES = [(lang, name) for lang in LANGUAGES for name in PROVENANCE["languages"][lang]["configs"]]


def local_args(args: list[str]) -> list[str]:
    return [str(LANG_DIR / a[len("@data:"):]) if a.startswith("@data:") else a for a in args]


@lru_cache(maxsize=None)
def rows(lang: str) -> list[dict]:
    return list(read_jsonl(LANG_DIR / f"{lang}.jsonl.gz"))


@pytest.fixture(scope="module")
def scorer(tmp_path_factory):
    cache = tmp_path_factory.mktemp("paraphrase-index")

    @lru_cache(maxsize=None)
    def make(lang: str, name: str) -> Meteor:
        args = PROVENANCE["languages"][lang]["configs"][name]
        return Meteor.from_params(jar_args_to_params(local_args(args)), cache_dir=str(cache))

    return make


@pytest.mark.parametrize("lang,name", CASES, ids=[f"{lang}-{name}" for lang, name in CASES])
def test_language_config(lang, name, scorer):
    meteor = scorer(lang, name)
    problems, stats = [], []
    for row in rows(lang):
        line, score = row["expected"][name]
        got = meteor.sentence_score(row["hyp"], row["refs"])
        stats.append(got.stats)
        if got.stats.to_line() != line:
            problems.append(f"{row['id']}: stats {got.stats.to_line()} != {line}")
        elif not abs(got.score - score) <= TOLERANCE:
            problems.append(f"{row['id']}: score {got.score!r} != {score!r}")
    assert problems[:10] == [] and not problems
    corpus = meteor.score_stats(MeteorStats.sum(stats)).score
    assert abs(corpus - PROVENANCE["languages"][lang]["corpus_score"][name]) <= TOLERANCE


TOKEN_FILES = sorted(LANG_DIR.glob("*.tokens.jsonl.gz"))


QUOTE_TOKENS = LANG_DIR.parent / "quotes" / "en.tokens.jsonl.gz"  # English MT output with curly quotes


@pytest.mark.parametrize("path", TOKEN_FILES + [QUOTE_TOKENS],
                         ids=[p.name.split(".")[0] for p in TOKEN_FILES] + ["en-quotes"])
def test_normalized_tokens(path):
    """-norm / -norm -noPunct tokens of every text equal the jar's (its -writeAlignments output)."""
    wrong = []
    rows_read = 0
    for row in read_jsonl(path):
        rows_read += 1
        keep = row["normalization"] == "norm"
        got = " ".join(tokenize(java_lower(normalize_line(row["text"], row["language"], keep_punct=keep))))
        if got != row["tokens"]:
            wrong.append((row["normalization"], row["text"], got, row["tokens"]))
    assert rows_read >= 300 and wrong[:5] == [] and not wrong


def test_every_language_is_covered():
    assert set(LANGUAGES) == {"cz", "fr", "es", "de", "ru", "da", "fi", "hu", "it", "nl", "no", "pt", "ro",
                              "se", "tr", "ar-bw-red", "other"}
    assert all(len(rows(lang)) >= 150 for lang in LANGUAGES)
    assert {p.name.split(".")[0] for p in TOKEN_FILES} == {"cz", "fr", "es", "de", "ru"}


@pytest.mark.parametrize("name", sorted(PROVENANCE["probes"]))
def test_refused_like_the_jar(name):
    """What the jar dies on is an error here too (a ValueError, or a missing paraphrase table)."""
    probe = PROVENANCE["probes"][name]
    assert probe["exit"] != 0
    with pytest.raises((ValueError, FileNotFoundError)):
        Meteor.from_params(MeteorParams.from_jar_args(probe["args"]))


def test_new_language_directory():
    """-new DIR: language other, task universal, lowercasing, DIR/function.words and DIR/paraphrase.gz."""
    d = LANG_DIR / "newlang-de"
    p = MeteorParams.from_jar_args(["-l", "fr", "-norm", "-m", "exact", "-new", str(d)])
    assert (p.language, p.task, p.normalization, p.modules, p.weights) == (
        "other", "universal", "lc_only", ("exact", "paraphrase"), (1.0, 0.6))
    assert Path(p.function_words) == d / "function.words" and Path(p.paraphrase_table) == d / "paraphrase.gz"


LIVE = [("de", "norm"), ("fr", "norm_nopunct"), ("cz", "norm"), ("da", "raw"), ("ar-bw-red", "lower"),
        ("other", "tune"), ("de", "paraphrase")]


@pytest.mark.parametrize("lang,name", LIVE, ids=[f"{lang}-{name}" for lang, name in LIVE])
def test_live_jar(lang, name, scorer):
    """A few rows through the jar itself, now (skips without Java or pycocoevalcap's jar)."""
    reason = jarlib.available()
    if reason:
        pytest.skip(reason)
    sample = rows(lang)[:12]
    args = local_args(PROVENANCE["languages"][lang]["configs"][name])
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(jarlib.find_jar()) as z:
            z.extractall(tmp, [m for m in z.namelist() if m.startswith("function/")])
        args = [str(Path(tmp) / a[len("@jar:"):]) if a.startswith("@jar:") else a for a in args]
        with jarlib.JarStdio(args) as proc:
            lines = proc.score_many([r["hyp"] for r in sample], [r["refs"] for r in sample])
    meteor = scorer(lang, name)
    assert [meteor.sentence_score(r["hyp"], r["refs"]).stats.to_line() for r in sample] == lines
