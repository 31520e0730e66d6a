"""The compiled core (``impl="native"``) against the pure-Python engine, which is the reference.

Covered here: choosing the engine, identical statistics and alignments on random and adversarial token
sequences in several configurations, inputs the C code refuses (checked in the glue and again in C), the
candidate limit's distinct result, and a build under AddressSanitizer running the same cases. The jar
conformance suite runs under both engines through the ``engine`` fixture (tests/conftest.py).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import logging
import math
import os
import pickle
import random
import shutil
import subprocess
import sys
import sysconfig
from array import array
from functools import lru_cache
from operator import attrgetter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from meteor_metric import Meteor
from meteor_metric.core.alignment import Match
from meteor_metric.core.stats import MeteorStats, stats_values
from meteor_metric.meteor15 import native_engine
from meteor_metric.meteor15.aligner import align
from meteor_metric.meteor15.formula import compute_metrics
from meteor_metric.meteor15.native_engine import NativeAligner, ascii_normalizer, native_available, resolve_engine
from meteor_metric.meteor15.normalize import java_lower, normalize_line, tokenize
from meteor_metric.meteor15.paraphrase import ParaphraseTableNotFound

REPO = Path(__file__).resolve().parents[1]
needs_native = pytest.mark.skipif(not native_available(),
                                  reason=f"the native engine is not built: {native_engine.LOAD_ERROR}")

# words with exact, stem, synonym and paraphrase matches among them, function words, and a non-BMP token
VOCAB = ("the a of to in that is said says say told cat cats dog dogs house home big large great run runs "
         "running ran quickly fast however but because since result results in order to , . 's "
         "president chairman company firm percent per cent 😀x éte").split() + [
    "Aa", "BB",  # equal Java hashes: an exact match to the jar
    "\ud83dx"]  # a lone surrogate: one UTF-16 unit
CONFIGS = {
    "default": {},
    "char_based": {"char_based": True},
    "util": {"task": "util"},
    "crossings": {"fragmentation": "crossings"},
    "lemma": {"modules": ["exact", "lemma", "paraphrase"]},  # Python matching, C alignment and count
    "beam_2": {"beam_size": 2},
    "no_norm": {"normalization": "no_norm", "modules": ["exact", "stem"]},
}


@lru_cache(maxsize=None)
def scorer(config: str, impl: str) -> Meteor:
    try:
        return Meteor(impl=impl, **CONFIGS[config])
    except ParaphraseTableNotFound as exc:
        pytest.skip(f"no English paraphrase table installed: {exc}")


def both(config: str, hyp: tuple[str, ...], ref: tuple[str, ...]):
    """(stats, alignment) from each engine, for already tokenized sentences."""
    return scorer(config, "python").align_tokens(hyp, ref), scorer(config, "native").align_tokens(hyp, ref)


tokens = st.lists(st.sampled_from(VOCAB), max_size=24).map(tuple)


def same_floats(a, b) -> bool:
    """Equal doubles, bit for bit, or both NaN (a segment without matches has a NaN penalty)."""
    return len(a) == len(b) and all(x == y and math.copysign(1, x) == math.copysign(1, y)
                                    or math.isnan(x) and math.isnan(y) for x, y in zip(a, b))


def same_result(a, b) -> bool:
    """Two results of Core.score_tokens are the same (alignment, statistics, candidates, score values)."""
    return a[:3] == b[:3] and (a[3] is None and b[3] is None or same_floats(a[3], b[3]))


@needs_native
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(sorted(CONFIGS)), hyp=tokens, ref=tokens)
def test_random_sentences_give_identical_statistics_and_alignments(config, hyp, ref):
    python, native = both(config, hyp, ref)
    assert native == python


@needs_native
@pytest.mark.parametrize("hyp, ref", [
    ((), ()),
    (("the",) * 300, ("the",) * 299 + ("cat",)),  # every pair of positions a candidate
    (("in", "order", "to") * 40, ("to",) * 60 + ("because",) * 60),  # overlapping paraphrase spans
    (tuple("abcdefghij" * 20), tuple("jihgfedcba" * 20)),  # crossings everywhere
    (("said",) * 70, ("told", "says", "say") * 25),  # stem and synonym candidates competing
    (tuple(f"w{k}" for k in range(200)), tuple(f"w{k}" for k in range(199, -1, -1))),  # > 64 words, reversed
])
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_adversarial_sentences_give_identical_results(config, hyp, ref):
    python, native = both(config, hyp, ref)
    assert native == python


def random_problem(rng: random.Random) -> tuple[int, list[list[Match]], list[bool]]:
    """A hypothesis length, candidates per reference position (1-3-word spans, up to four modules, many
    overlapping) and which modules are exact."""
    n_hyp, n_ref = rng.randint(0, 25), rng.randint(0, 25)
    exact = [True, False, False, False][:rng.randint(1, 4)]
    candidates: list[list[Match]] = [[] for _ in range(n_ref)]
    for _ in range(rng.randint(0, 4 * n_ref) if n_hyp else 0):
        ref_len, hyp_len = rng.choice((1, 1, 1, 2, 3)), rng.choice((1, 1, 1, 2, 3))
        ref_start, hyp_start = rng.randrange(n_ref), rng.randrange(n_hyp)
        if ref_start + ref_len <= n_ref and hyp_start + hyp_len <= n_hyp:
            candidates[ref_start].append(Match(ref_start, ref_len, hyp_start, hyp_len, rng.randrange(len(exact))))
    return n_hyp, candidates, exact


@needs_native
@pytest.mark.parametrize("beam", [1, 2, 3, 5, 40])
def test_the_c_beam_search_keeps_what_the_jars_sort_and_cut_keep(beam):
    """Narrow beams prune at almost every position and many successors tie: the compiled search (candidate
    successors offered first, then the skips, placed by key and original order) must keep exactly the paths
    aligner.align keeps. A skip placed before a later parent's equal-key successor it follows in the jar's
    order made 1,071 of 120,000 such problems differ."""
    rng = random.Random(beam)
    for _ in range(1500):
        n_hyp, candidates, exact = random_problem(rng)
        assert NativeAligner(exact, beam).align(n_hyp, candidates) == list(align(n_hyp, candidates, exact, beam))


@needs_native
def test_corpus_and_sentence_paths_agree_between_engines():
    hyps = [" ".join(VOCAB[k:k + 9]) for k in range(0, 40, 3)]
    refs = [[" ".join(VOCAB[k + 2:k + 12]), "the cat said"] for k in range(0, 40, 3)]
    py, nat = scorer("default", "python"), scorer("default", "native")
    a, b = py.corpus_score(hyps, refs), nat.corpus_score(hyps, refs)
    assert (b.score, b.stats) == (a.score, a.stats)
    assert [(s.stats, s.alignment, s.best_ref) for s in b.segments] == [(s.stats, s.alignment, s.best_ref)
                                                                         for s in a.segments]
    assert nat.sentence_score(hyps[0], refs[0]) == py.sentence_score(hyps[0], refs[0])


@needs_native
def test_segment_results_made_in_c_equal_the_python_engines():
    """The core makes a segment's result itself (Core.segment): the Python engine's, field for field, against
    the best reference, the first of equal best scores, with the same error past the candidate limit."""
    py, nat = scorer("default", "python"), scorer("default", "native")
    assert nat._native.makes_segments
    hyp = "the cat said that the dogs run"
    for refs in (["a dog runs", "the cats say that the dog ran", "the cat said"],  # the best: reference 1
                 ["the cat said that the dogs run", "the cat said that the dogs run"],  # a tie: the first
                 ["the house"]):
        got, want = nat.sentence_score(hyp, refs), py.sentence_score(hyp, refs)
        assert got == want and got.best_ref == want.best_ref
        assert type(got) is type(want) and list(vars(got)) == list(vars(want))
        assert type(got.stats) is MeteorStats and list(vars(got.stats)) == list(vars(want.stats))
        assert pickle.loads(pickle.dumps(got)) == want and hash(got.stats) == hash(want.stats)
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.score = 0.0
    assert [want.best_ref for want in py.score_pairs([(hyp, ["a dog runs", "the cats say that the dog ran"])])] == [1]
    limited = {impl: Meteor(impl=impl, max_segment_candidates=12) for impl in ("python", "native")}
    errors = []
    for impl, meteor in limited.items():
        with pytest.raises(ValueError, match="more than max_segment_candidates=12") as caught:
            meteor.corpus_score(["x", hyp], [["y"], ["the cat said", "the cat said that the dogs run"]])
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and errors[0].startswith("segment 1: the hypothesis and references 0-1 have")


@needs_native
def test_a_core_without_result_classes_makes_no_segments():
    core = native_engine.meteor_core
    table = core.Core(b"\x00", b"\x01", 40, False, Match, None, None)
    with pytest.raises(RuntimeError, match="without result classes or formula"):
        table.segment(("the",), [("the",)], -1)
    with pytest.raises(TypeError, match="results must be"):
        core.Core(b"\x00", b"\x01", 40, False, Match, None, None, None, (MeteorStats, ("a",), MeteorStats, (), "s"))
    engine = scorer("default", "native")._native
    with pytest.raises(ValueError, match="at least one"):
        engine.segment(("the",), [], None)
    with pytest.raises(TypeError, match="sequence of str"):
        engine.segment(("the",), [("the",), None], None)
    with pytest.raises(TypeError, match="list or tuple of token sequences"):
        engine.segment(("the",), iter([("the",)]), None)
    assert engine.segment(("the",) * 5, [("a",), ("the",) * 4], 19) == 1  # the reference past the limit


GOLDEN_NORMALIZED = REPO / "tests" / "data" / "normalize_golden.jsonl.gz"


@needs_native
def test_the_compiled_normalizer_gives_the_jars_tokens():
    """normalize_ascii on the jar's normalization goldens (tests/data/normalize_golden.jsonl.gz, -norm and
    -norm with punctuation removed): the jar's tokens wherever it takes the line, and it takes most."""
    import gzip
    import json

    rows = [json.loads(line) for line in gzip.open(GOLDEN_NORMALIZED, "rt", encoding="utf-8")]
    taken = 0
    for row in rows:
        if row["normalization"] not in ("norm", "norm_nopunct"):
            continue
        normalize = ascii_normalizer(row["language"], row["normalization"] == "norm")
        for side in ("hyp", "ref"):
            got = normalize(row[side])
            if got is not None:
                taken += 1
                assert got == tuple(tokenize(row["norm_" + side])), (row["id"], side)
    assert taken >= 500


JAR_TOKEN_FILES = sorted((REPO / "tests" / "data" / "java15" / "languages").glob("*.tokens.jsonl.gz")) + [
    REPO / "tests" / "data" / "java15" / "quotes" / "en.tokens.jsonl.gz"]


@needs_native
@pytest.mark.parametrize("path", JAR_TOKEN_FILES, ids=[p.parent.name + "/" + p.name.split(".")[0]
                                                        for p in JAR_TOKEN_FILES])
def test_the_compiled_normalizer_gives_the_jars_tokens_in_every_language(path):
    """The jar's -norm / -norm -noPunct tokens (its -writeAlignments output) of real text in cz, fr, es, de
    and ru, and of English MT output with curly quotes (scripts/build_quote_goldens.py): equal wherever the
    compiled normalizer takes the line; it takes nearly every quoted English line (the quotes are mapped)."""
    import gzip

    rows = [json.loads(line) for line in gzip.open(path, "rt", encoding="utf-8")]
    taken = quoted = 0
    for row in rows:
        got = ascii_normalizer(row["language"], row["normalization"] == "norm")(row["text"])
        if got is not None:
            taken += 1
            quoted += any(q in row["text"] for q in "\u2018\u2019\u201c\u201d")
            assert " ".join(got) == row["tokens"], row
    assert taken >= 30  # Czech and Russian text is mostly outside ASCII: the Python functions take it
    if path.parent.name == "quotes":
        assert len(rows) == 600 and quoted >= 590


ASCII_TEXT = st.lists(st.sampled_from(list("aAzZ09 .,'`-\"()$;:!?/\t\n\r") + [
    "U.S.", "e.g.", "Mr.", "No.", "DOTMULTI", "D.O.T.M.U.L.T.I.", "1,000", "''", "--", "``", "'s", "\x0b", "é",
    "\u2018", "\u2019", "\u201c", "\u201d", "\u2019\u2019", "\u2019s", "\u2013"]), max_size=40).map("".join)


@needs_native
@settings(max_examples=3000, deadline=None)
@given(text=ASCII_TEXT, language=st.sampled_from(["en", "fr", "de", "cz"]), keep_punct=st.booleans())
def test_the_compiled_normalizer_equals_the_python_one(text, language, keep_punct):
    """normalize_ascii against the Python functions (the reference); it refuses what it does not port."""
    got = ascii_normalizer(language, keep_punct)(text)
    if got is None:
        assert (".." in text or "DOTMULTI" in text.replace(".", "") or "\x0b" in text or "é" in text
                or "\u2013" in text)
    else:
        assert got == tuple(tokenize(java_lower(normalize_line(text, language, keep_punct))))


@needs_native
def test_the_compiled_normalizers_tokens_are_left_to_reference_counting():
    """Its token tuples hold only str, so they cannot be part of a cycle: they are not tracked by the cyclic
    collector, which would otherwise rescan every token a corpus keeps alive."""
    text = "The cat sat on the mat."
    tokens = ascii_normalizer("en", False)(text)
    assert tokens == tuple(tokenize(java_lower(normalize_line(text, "en", False)))) == ("the", "cat", "sat", "on",
                                                                                         "the", "mat")
    assert not gc.is_tracked(tokens)


def test_uncached_function_flags_are_is_function_words():
    """StatsCounter.function_flags_uncached (the flags of the tokens the native engine's table lacks) gives
    is_function_word's flag for every token (the rule the jar's golden statistics check, e.g. "The" in the
    en_raw cases), in a batch of lower-case ASCII tokens (one set lookup each) and in batches that need the
    rule (capitals, Java's and Python's lower-casing apart, non-ASCII), and leaves the counter's cache empty."""
    from meteor_metric.meteor15.normalize import load_function_words
    from meteor_metric.meteor15.statistics import StatsCounter

    words = sorted(load_function_words("en"))
    counter = StatsCounter(frozenset(words) | {"σας", "\u2c2f"}, 1)
    odd = ["The", "OF", "ΣΑΣ", "σας", "\u2c2f", "x\u2c2f", "İt", "\ud800", "", "3", "a-b", "Of"]
    for batch in (words, words[:3] + ["cat", "1999", ","], odd, words[:5] + ["The"], [w.upper() for w in words]):
        assert counter.function_flags_uncached(batch) == [counter.is_function_word(t) for t in batch]
    assert counter.function_flags_uncached(["The", "OF", "cat"]) == [True, True, False]
    assert not counter._function_cache
    ascii_words = [w for w in words if w.isascii()]  # (the list also holds "’" and "—")
    counter.is_function_word = None  # a lower-case ASCII batch takes the set lookups alone
    assert counter.function_flags_uncached(ascii_words + ["cat"]) == [True] * len(ascii_words) + [False]


def test_engine_is_chosen_by_keyword_then_environment(monkeypatch):
    monkeypatch.setenv("METEOR_METRIC_IMPL", "python")
    assert Meteor(modules=["exact"]).engine == "python"
    assert resolve_engine("python") == "python"
    if native_available():
        assert Meteor(modules=["exact"], impl="native").engine == "native"
        monkeypatch.setenv("METEOR_METRIC_IMPL", "native")
        assert Meteor(modules=["exact"]).engine == "native"
        monkeypatch.setenv("METEOR_METRIC_IMPL", "auto")
        assert Meteor(modules=["exact"]).engine == "native"
    # the signature names the metric, not the engine
    assert Meteor(modules=["exact"], impl="python").signature == Meteor(modules=["exact"]).signature


def test_unknown_engine_names_are_refused(monkeypatch):
    with pytest.raises(ValueError, match="impl must be 'python', 'native' or 'auto', got 'fast'"):
        Meteor(impl="fast")
    monkeypatch.setenv("METEOR_METRIC_IMPL", "Native")
    with pytest.raises(ValueError, match=r"\$METEOR_METRIC_IMPL must be"):
        Meteor()


def test_without_the_extension_auto_says_once_it_runs_python_and_native_is_an_error(monkeypatch, caplog):
    monkeypatch.setattr(native_engine, "meteor_core", None)
    monkeypatch.setattr(native_engine, "LOAD_ERROR", "No module named 'meteor_core'")
    monkeypatch.setattr(native_engine, "_announced", [])
    monkeypatch.setattr(native_engine, "shadowed_core", lambda: None)  # no other copy with the core
    monkeypatch.delenv("METEOR_METRIC_IMPL", raising=False)
    with caplog.at_level(logging.INFO, logger="meteor_metric"):
        assert Meteor(modules=["exact"]).engine == "python"
        assert Meteor(modules=["exact"], impl="auto").engine == "python"
    assert [r.getMessage() for r in caplog.records] == [
        "meteor_metric: the compiled core is not available (No module named 'meteor_core'); scoring in pure Python"]
    with pytest.raises(RuntimeError, match="the native engine was asked for"):
        Meteor(modules=["exact"], impl="native")
    assert Meteor(modules=["exact"]).sentence_score("the cat", "the cat").score > 0.9


def test_a_checkout_shadowing_an_installed_core_says_so_as_a_warning(tmp_path):
    """After ``pip install .``, python started in the clone imports the clone's package, where the core is not
    built: a warning (shown without any logging set up) says why the engine is Python and what to do. Without
    an installed copy that has the core (no compiler, or the build turned off) it stays an INFO line."""
    package = Path(native_engine.__file__).resolve().parents[1]
    shutil.copytree(package, tmp_path / "clone" / "meteor_metric",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.idx", "__pycache__"))
    installed = tmp_path / "site" / "meteor_metric" / "meteor15" / "meteor_core.cpython-311-x86_64-linux-gnu.so"
    installed.parent.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "METEOR_METRIC_IMPL"}
    code = "from meteor_metric import Meteor; print(Meteor(modules=['exact']).engine)"

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code], cwd=tmp_path / "clone", capture_output=True, text=True,
                              timeout=120, env={**env, "PYTHONPATH": str(tmp_path / "site")})

    proc = run()  # no installed core
    assert proc.returncode == 0 and proc.stdout == "python\n" and proc.stderr == "", proc.stderr
    installed.write_bytes(b"")
    proc = run()
    assert proc.returncode == 0 and proc.stdout == "python\n", proc.stderr
    clone = (tmp_path / "clone" / "meteor_metric").resolve()
    assert proc.stderr == (f"meteor_metric: imported from {clone}, where the "
                           f"compiled core is not built; it shadows the installed package, which has it ({installed}). "
                           "Scoring in pure Python: run from another directory to use the installed package, or "
                           "build the core here with: pip install -e .\n")


@needs_native
def test_the_core_refuses_malformed_input():
    core = native_engine.meteor_core
    record = array("i", [0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="outside the sentences"):
        core.align(1, 1, array("i", [0, 1, 0, 2, 0]), b"\x01", 40, -1)  # hypothesis span past the end
    with pytest.raises(ValueError, match="outside the sentences"):
        core.align(1, 1, array("i", [0, 1, 0, 1, 1]), b"\x01", 40, -1)  # a module without exact_type
    with pytest.raises(ValueError, match="out of reference order"):
        core.align(2, 2, array("i", [1, 1, 0, 1, 0, 0, 1, 1, 1, 0]), b"\x01", 40, -1)
    with pytest.raises(ValueError, match="whole 5-int32 records"):
        core.align(1, 1, b"\x00" * 7, b"\x01", 40, -1)
    with pytest.raises(ValueError, match="token counts"):
        core.align(-1, 1, record, b"\x01", 40, -1)
    with pytest.raises(ValueError, match="beam_size"):
        core.align(1, 1, record, b"\x01", 0, -1)
    with pytest.raises(ValueError, match="inconsistent"):
        core.count(record, b"\x00", b"\x00", array("i", [1, 1]), array("i", [1]), 1)
    with pytest.raises(ValueError, match="outside the sentences"):
        core.count(array("i", [0, 1, 3, 1, 0]), b"\x00", b"\x00", array("i", [1]), array("i", [1]), 1)
    with pytest.raises(ValueError, match="listed at reference position 1"):
        NativeAligner([True], 40).align(1, [[], [Match(0, 1, 0, 1, 0)]])
    with pytest.raises(ValueError, match="beam_size"):
        NativeAligner([True], 0)
    empty = core.Core.__new__(core.Core)  # never initialised: refused, not a crash
    for call in (lambda: empty.score_tokens(("a",), ("a",), -1), lambda: empty.add_token("a", None, (), False),
                 lambda: empty.score(array("i", [0]), array("i", [0]), -1)):
        with pytest.raises(RuntimeError, match="not initialised"):
            call()
    table = core.Core(b"\x00", b"\x01", 40, False, Match, None, None)
    first = table.add_token("a", None, (), False)
    with pytest.raises(ValueError, match="token id 7 is not in the table"):
        table.score(array("i", [first]), array("i", [7]), -1)
    assert table.score_tokens(("b", "a", "c", "b"), ("c", "d"), -1) == ["b", "c", "d"]  # not in the table yet
    assert table.add_token("a", None, (), False) == first  # added by another thread meanwhile: kept
    with pytest.raises(TypeError, match="hypothesis token 1 is int, not str"):
        table.score_tokens(("a", 1), ("a",), -1)
    assert table.score_tokens(("a",), ("a",), -1)[1][-2:] == (1, 1)  # one word aligned, one each side
    with pytest.raises(TypeError):
        core.Core(b"\x00", b"\x01", 40, False, list, None, None)  # not a tuple subclass
    with pytest.raises(ValueError, match="paraphrase module needs"):
        core.Core(b"\x03", b"\x00", 40, False, Match, None, None)


@needs_native
def test_the_token_table_finds_each_token_by_its_text():
    """The core's own index of its token table (texts of up to 15 one-byte characters held in its slots, longer
    and wider ones compared with the held key) against a dict, the reference: equal texts in other str objects
    or in a str subclass find the same id, texts one character apart do not, over several doublings."""

    class Word(str):
        def __hash__(self):
            return 0

        def __eq__(self, other):
            return True

    rng = random.Random(7)
    alphabet = "ab\xe9\u4e2d\U0001f600"  # one-byte, two-byte and four-byte characters
    words = {"a" * 15, "a" * 16, "a" * 14 + "\xe9", "\xe9", "\u4e2d", ""}
    while len(words) < 5000:
        words.add("".join(rng.choice(alphabet[:2] if rng.random() < 0.7 else alphabet) for _ in
                          range(rng.randint(1, 40))))
    table = native_engine.meteor_core.Core(b"\x00", b"\x01", 40, False, Match, None, None)
    reference = {}
    for word in sorted(words):
        reference[word] = table.add_token(word, None, (), False)
    assert sorted(reference.values()) == list(range(len(words))) and table.size() == len(words)
    for word, token_id in reference.items():
        copy = "".join(list(word))  # the same text in another object
        assert table.add_token(copy, None, (), False) == token_id
        assert table.add_token(Word(word), None, (), False) == token_id  # its text, not its __eq__ or __hash__
        assert type(table.score_tokens((copy,), (Word(copy),), -1)) is tuple  # found: scored
        for other in (word + "a", word[:-1] + "b" if word.endswith("a") else word[:-1] + "a"):
            if other not in reference:
                assert table.score_tokens((other,), (copy,), -1) == [other]
    assert table.size() == len(words)


@needs_native
def test_a_token_added_while_its_synsets_are_read_is_kept_once():
    """Reading a synset sequence can run Python code (an item's __index__) that adds tokens to the same
    table, enough to grow it: the table is changed only after the synsets are read, and the token that code
    added is not added twice."""
    table = native_engine.meteor_core.Core(b"\x02", b"\x00", 40, False, Match, None, None)

    class Meddling:
        def __index__(self):
            for k in range(3000):  # past the first allocations of the table and its index
                table.add_token(f"x{k}", None, (), False)
            table.add_token("w", None, (7,), False)
            return 5

    ids = [Meddling()]
    token_id = table.add_token("w", None, ids, False)
    assert table.size() == 3001 and token_id == table.add_token("w", None, (), False) == 3000
    table.add_token("v", None, (7,), False)
    assert table.score_tokens(("w",), ("v",), -1)[1][-2:] == (1, 1)  # synonyms: "w" has 7 (the inner call's)


@needs_native
def test_synset_ids_as_text_match_as_the_same_ids_as_ints():
    """WordNet's ids reach the core as the table's text (parsed, sorted, repeats dropped in C); the matches
    are those of the same ids given as ints. Malformed text is refused."""
    def table(ids_of):
        core = native_engine.meteor_core.Core(b"\x02", b"\x00", 40, False, Match, None, None)
        for word, ids in ids_of.items():
            core.add_token(word, None, ids, False)
        return core
    as_ints = {"cat": (7, 12), "kitty": (12,), "dog": (9, 7), "fish": (), "x": (2**62,)}
    as_text = {"cat": " 12 7 12  ", "kitty": "12", "dog": "9 7 7", "fish": " ", "x": str(2**62)}
    hyp, ref = ("cat", "fish", "dog", "x"), ("kitty", "dog", "cat", "x", "fish")
    expected = table(as_ints).score_tokens(hyp, ref, -1)
    assert table(as_text).score_tokens(hyp, ref, -1) == expected and expected[2] == 3  # candidate synonym matches
    core = table({})
    for bad, message in (("1 2a", "decimal ids"), ("1,2", "decimal ids"), ("-3", "decimal ids"),
                         ("1\t2", "decimal ids"), ("9" * 19, "too large")):
        with pytest.raises(ValueError, match=message):
            core.add_token("w", None, bad, False)
    assert core.score_tokens(("w",), ("w",), -1) == ["w"]  # a refused token was not added


@needs_native
def test_a_wordnet_given_to_add_token_gives_the_lookups_ids():
    """The native engine hands add_token the compiled WordNet index and the core looks each token's synsets up
    itself: tokens (WordNet words, their inflections, words outside it, non-ASCII) match as with the ids of
    SynonymTable.lookup given as ints (the Python table, checked against the jar's ids elsewhere): the same
    candidates, alignments and statistics on 300 pairs."""
    from meteor_metric.meteor15.synonyms import SynonymTable

    wordnet = SynonymTable.english()
    index = native_engine.wordnet_index(wordnet)
    rng = random.Random(11)
    words = ("cat kitty big large huge run ran sprint house home dog hound car automobile fast quick rapid begin "
             "start commence said told geese goose better good went go xyzzy caf\xe9").split() + [""]
    words += sorted(wordnet)[::2999] + [w + suffix for w in words[:20] for suffix in ("s", "ed", "ing")]

    def table(synsets_of):
        core = native_engine.meteor_core.Core(b"\x02", b"\x00", 40, False, Match, None, None)
        for word in words:
            core.add_token(word, None, synsets_of(word), False)
        return core

    by_index, by_ids = table(lambda word: index), table(lambda word: tuple(wordnet.lookup(word)))
    assert candidates_alike(by_index, by_ids, words, rng) > 150  # synonym candidates were found


def candidates_alike(table, reference, words, rng, pairs=300) -> int:
    """Scores random pairs of ``words`` with two cores' tables, asserting the same results; the candidates found."""
    found = 0
    for _ in range(pairs):
        hyp, ref = (tuple(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(2))
        got = table.score_tokens(hyp, ref, -1)
        assert same_result(got, reference.score_tokens(hyp, ref, -1)), (hyp, ref)
        found += got[2]
    return found


@needs_native
def test_add_tokens_is_add_token_of_each_token():
    """add_tokens (how the native engine puts a batch of new tokens in its table, in one call) gives each token the
    id, stem, synsets and function-word flag add_token gives it: the same ids, and the same results on 300 pairs
    against a table made token by token. A malformed batch is refused, naming what is wrong, and adds no token."""
    from meteor_metric.meteor15.stemmers import get_stemmer
    from meteor_metric.meteor15.synonyms import SynonymTable

    index = native_engine.wordnet_index(SynonymTable.english())
    stem = get_stemmer("english")
    rng = random.Random(5)
    words = ("the a of cat cats kitty big large run ran running sprint house houses home dog hound went go "
             "quick quickly begin started xyzzy caf\xe9 THE Of").split() + [""]
    batch = words + words[:5]  # a token twice in a batch keeps its first id
    flags = [w.lower() in ("the", "a", "of") for w in batch]

    def new_core():
        return native_engine.meteor_core.Core(b"\x00\x01\x02", b"\x01\x00\x00", 40, False, Match, None, None)

    one_by_one, batched = new_core(), new_core()
    ids = [one_by_one.add_token(w, stem(w), index, f) for w, f in zip(batch, flags)]
    assert batched.add_tokens(batch, [stem(w) for w in batch], index, flags) is None
    assert batched.size() == one_by_one.size() == len(words)
    assert [batched.add_token(w, stem(w), index, f) for w, f in zip(batch, flags)] == ids
    assert candidates_alike(batched, one_by_one, words, rng) > 300
    without_stems = native_engine.meteor_core.Core(b"\x00\x02", b"\x01\x00", 40, False, Match, None, None)
    without_stems.add_tokens(("walk", "walks"), None, index, (False, False))
    assert without_stems.size() == 2
    core = new_core()
    with pytest.raises(ValueError, match="2 tokens, 2 stems and 1 function-word flags"):
        core.add_tokens(["a", "b"], ["a", "b"], index, [False])
    with pytest.raises(ValueError, match="2 tokens, 1 stems and 2 function-word flags"):
        core.add_tokens(["a", "b"], ["a"], index, [False, False])
    with pytest.raises(TypeError, match="token 1 is a int, not a str"):
        core.add_tokens(["a", 7], None, index, [False, False])
    with pytest.raises(TypeError, match="stem 1 is a bytes, not a str"):
        core.add_tokens(["a", "b"], ["a", b"b"], index, [False, False])
    with pytest.raises(TypeError, match="add_token: stem must be a str or None"):
        core.add_token("a", b"a", index, False)
    with pytest.raises(TypeError, match="WordNet"):
        core.add_tokens(["a"], None, (1, 2), [False])
    with pytest.raises(TypeError, match="sequences of str, not a str"):
        core.add_tokens("ab", None, index, [False, False])
    with pytest.raises(TypeError, match="sequences of str, not a str"):
        core.add_tokens(["ab"], "ab", index, [False])
    with pytest.raises(TypeError):
        core.add_tokens(None, None, index, [])
    assert core.size() == 0


def test_the_wordnet_id_text_holds_the_lookups_ids():
    from meteor_metric.meteor15.synonyms import SynonymTable

    wordnet = SynonymTable.english()
    words = ["cat", "cats", "running", "ran", "geese", "better", "abacuses", "glasses", "xyzzy", "", "a",
             "Dog", "went", "mice", "criteria", "oxen", "studied", "happier"] + sorted(wordnet)[::997]
    for word in words:
        assert frozenset(map(int, wordnet.id_text(word).split())) == wordnet.lookup(word), word


@needs_native
def test_a_damaged_paraphrase_trie_is_an_error_not_a_crash():
    # node 1 claims children 0..99 of a 2-entry token array; its paraphrase list points past the array
    tok, child, start = array("I", [0, 0]), array("I", [0, 1, 100, 100]), array("I", [0, 0, 5, 5])
    para, levels = array("I", [1]), array("I", [0, 1])
    core = native_engine.meteor_core.Core(b"\x03", b"\x00", 40, False, Match,
                                          tuple(memoryview(a) for a in (tok, child, start, para, levels)), {"a": 0})
    word = core.add_token("a", None, (), False)
    with pytest.raises(ValueError, match="damaged"):
        core.score(array("i", [word, word]), array("i", [word]), -1)
    # a word's child, found by the binary search, with a reversed paraphrase range: refused every time (the
    # walk keeps the steps it took only once checked)
    tok, child, start = array("I", [0, 0]), array("I", [0, 0, 2, 2]), array("I", [7, 0, 0, 0])
    core = native_engine.meteor_core.Core(b"\x03", b"\x00", 40, False, Match,
                                          tuple(memoryview(a) for a in (tok, child, start, para, levels)), {"a": 0})
    word = core.add_token("a", None, (), False)
    for _ in range(2):
        with pytest.raises(ValueError, match="damaged"):
            core.score(array("i", [word, word]), array("i", [word]), -1)


@needs_native
@pytest.mark.parametrize("config", ["default", "lemma"])
def test_past_the_candidate_limit_a_pair_is_refused(config):
    engine = scorer(config, "native")._native
    hyp, ref = ("the",) * 5, ("the",) * 4
    with pytest.raises(ValueError, match="more than max_segment_candidates=19 candidate matches"):
        engine.pair(hyp, ref, max_candidates=19)
    stats, alignment, found, _ = engine.pair(hyp, ref, max_candidates=20)  # 20 exact candidates: within the limit
    assert (stats, alignment) == scorer(config, "python").align_tokens(hyp, ref)
    assert found == 20
    with pytest.raises(ValueError, match="more than max_segment_candidates=20 candidate matches"):
        engine.pair(hyp, ref, max_candidates=20, used=1)  # the segment's earlier references count too


@needs_native
def test_the_native_engine_leaves_the_python_wordnet_table_unparsed():
    """New words get their synsets from the compiled core's WordNet index: a process scoring only with the
    native engine never parses the Python table's dicts (0.1 s of start-up), and scores as the Python engine."""
    code = ("from meteor_metric import Meteor\n"
            "from meteor_metric.meteor15.synonyms import SynonymTable\n"
            "score = Meteor(impl='native').corpus_score(['the cats sat on mats'], ['a cat sits on a mat']).score\n"
            "print(SynonymTable.english()._ids is None, repr(score))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    expected = Meteor(impl="python").corpus_score(["the cats sat on mats"], ["a cat sits on a mat"]).score
    assert out == ["True", repr(expected)]


ASAN_CASES = r"""
import json, random, sys
from array import array
from meteor_metric import Meteor
from meteor_metric.core.alignment import Match
from meteor_metric.meteor15 import native_engine
assert native_engine.meteor_core.__file__ == sys.argv[1], native_engine.meteor_core.__file__
vocab = json.loads(sys.argv[2])
py, nat = Meteor(impl="python"), Meteor(impl="native")
rng = random.Random(7)
n = 0
for _ in range(400):
    hyp = tuple(rng.choice(vocab) for _ in range(rng.randint(0, 30)))
    ref = tuple(rng.choice(vocab) for _ in range(rng.randint(0, 30)))
    assert nat.align_tokens(hyp, ref) == py.align_tokens(hyp, ref), (hyp, ref)
    n += 1
long = ("the",) * 200
assert nat.align_tokens(long, long[1:] + ("cat",)) == py.align_tokens(long, long[1:] + ("cat",))
limited = Meteor(impl="native", max_segment_candidates=30)
for _ in range(300):  # segment results made in C: several references, the limit, normalized texts
    hyp = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 20)))
    refs = [" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 20))) for _ in range(rng.randint(1, 4))]
    assert repr(nat.sentence_score(hyp, refs)) == repr(py.sentence_score(hyp, refs)), (hyp, refs)  # (NaN too)
    try:
        limited.sentence_score(hyp, refs)
    except ValueError:
        pass
segment = nat._native._table[0].segment
for bad in ([], 5, [5], [("the",), None]):
    try:
        segment(("the",), bad, -1)
    except (TypeError, ValueError):
        pass
from meteor_metric.meteor15.normalize import java_lower, nonbreaking_prefixes, normalize_line, tokenize
for text in ("A" * 5000 + " b. U.S. " * 300, "x " * 300, "", " ", "Mr. D.O.T. it's `quoted'' 1,000 -- a-b"):
    got = native_engine.meteor_core.normalize_ascii(text, nonbreaking_prefixes("en"), 0, True)  # long tokens, many
    assert got is None or got == tuple(tokenize(java_lower(normalize_line(text, "en", True)))), text
pool = [tuple(rng.choice(vocab) for _ in range(rng.randint(0, 30))) for _ in range(300)]  # kept, seen again, evicted
for _ in range(1500):
    hyp, ref = rng.choice(pool), rng.choice(pool)
    assert nat.align_tokens(hyp, ref) == py.align_tokens(hyp, ref), (hyp, ref)
kept_pairs = nat._native._table[0]
for k in range(3000):  # pairs of 40 sentences: kept, found again (within a limit or past it), evicted
    hyp, ref = rng.choice(pool[:40]), rng.choice(pool[:40])
    limit = rng.choice((-1, 0, 3, 30))
    got = kept_pairs.score_tokens(hyp, ref, limit)
    assert got is None or limit < 0 or got[2] <= limit
    if k % 10 == 0:
        assert nat.align_tokens(hyp, ref) == py.align_tokens(hyp, ref), (hyp, ref)
core = native_engine.meteor_core
for bad in (b"", b"\x00" * 7, bytes(range(40))):
    for n_hyp, n_ref in ((0, 0), (1, 1), (3, 2), (-1, 5)):
        try:
            core.align(n_hyp, n_ref, bad, b"\x01\x00", 3, -1)
        except ValueError:
            pass
table = core.Core(b"\x02", b"\x00", 40, False, Match, None, None)
for k in range(2000):  # synset ids as text: random digits, spaces and other characters, long runs
    text = "".join(rng.choice("0123456789  x-") for _ in range(rng.choice((0, 1, 5, 40, 400))))
    try:
        table.add_token(f"w{k}", None, text, False)
    except ValueError:
        pass
index = core.Core(b"\x00", b"\x01", 40, False, Match, None, None)  # the token index: widths, lengths, doublings
class Word(str):
    pass
words = ["".join(rng.choice("ab\xe9\u4e2d\U0001f600") for _ in range(rng.randint(0, 40))) for _ in range(3000)]
ids = [index.add_token(w, None, (), False) for w in words]
assert [index.add_token(Word(w), None, (), False) for w in words] == ids
for w in words[:500]:
    index.score_tokens((w + "a", w), (Word(w),), -1)
class Meddling:  # adds tokens (growing the table) while add_token reads its synsets
    def __index__(self):
        for k in range(3000):
            index.add_token(f"y{k}", None, (), False)
        return 5
index.add_token("z", None, [Meddling()], False)
assert index.size() == len(set(words)) + 3001
import gc  # a call made during another (a finalizer run by the collector): its own scratch memory
class Pair(tuple):
    __slots__ = ()
table = core.Core(b"\x00", b"\x01", 40, False, Pair, None, None)
small, large = tuple("the cat sat on the mat".split()), tuple(vocab) * 6
for token in small + large:
    table.add_token(token, None, (), False)
backwards = small[::-1]
alone, inner = table.score_tokens(tuple(list(small)), tuple(list(backwards)), -1), []  # (new tuples)
table.score_tokens(small, small, -1), table.score_tokens(backwards, backwards, -1)  # both kept, seen again below
others = [tuple(rng.sample(small + large[:40], 12)) for _ in range(300)]
class Reenters:  # scores a large pair (the arena), then 300 others (evicting every sentence the core kept)
    def __del__(self):
        inner.append(table.score_tokens(large, large[::-1], -1))
        for other in others:
            table.score_tokens(other, other[::-1], -1)
cycle = Reenters()
cycle.me = cycle
del cycle
gc.set_threshold(1)
assert table.score_tokens(small, backwards, -1) == alone and inner
from meteor_metric.meteor15.synonyms import MORPH_RULES, SynonymTable
wordnet = SynonymTable.english()  # the WordNet index: lookups, morph candidates, malformed tables
ids = native_engine.wordnet_index(wordnet).ids
given = core.Core(b"\x02", b"\x00", 40, False, Match, None, None)  # the index given to add_token
for w in vocab + ["x" * 5000, "\xe9s"]:
    given.add_token(w, None, native_engine.wordnet_index(wordnet), False)
batch = vocab + ["x" * 5000, "\xe9s", "\ud800"]  # ... and add_tokens, a batch in one call
core.Core(b"\x01\x02", b"\x00\x00", 40, False, Match, None, None).add_tokens(
    batch, batch, native_engine.wordnet_index(wordnet), [k % 2 for k in range(len(batch))])
for w in vocab + [w + suffix for w in vocab for suffix, _ in MORPH_RULES] + ["", "\xe9", "ss", "x" * 5000]:
    assert ids(w) == tuple(sorted(wordnet.lookup(w))), w
for _ in range(500):
    data = bytes(rng.choice(b"ab 01\n") for _ in range(rng.randint(0, 60)))
    for start in (0, len(data) // 2, len(data)):
        try:
            core.WordNet((data, start, rng.randint(0, 6), "s"), (data, start, rng.randint(0, 6), "e"), MORPH_RULES)
        except ValueError:
            pass
print("ASAN-OK", n)
"""


def _asan_runtime() -> str | None:
    if shutil.which("gcc") is None:
        return None
    out = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    return out if out and Path(out).is_file() else None


@needs_native
def test_the_core_under_address_sanitizer(tmp_path):
    """Builds the extension with -fsanitize=address,undefined and runs the differential cases and malformed calls
    in a subprocess with the ASan runtime preloaded; any out-of-bounds access, use after free or undefined
    behaviour (a signed overflow, a null pointer given to memcpy) aborts it."""
    runtime = _asan_runtime()
    include = sysconfig.get_paths()["include"]
    if runtime is None or not (Path(include) / "Python.h").is_file():
        pytest.skip("needs gcc with libasan and the Python headers")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    package = tmp_path / "meteor_metric" / "meteor15"
    built = tmp_path / f"meteor_core{suffix}"
    compiled = subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-g", "-fsanitize=address,undefined",
                               "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer",
                               "-ffp-contract=off", f"-I{include}", str(REPO / "src" / "native" / "meteor_core.c"),
                               "-o", str(built)], capture_output=True, text=True)
    if compiled.returncode:
        pytest.skip(f"the ASan build failed: {compiled.stderr[-500:]}")
    # a copy of the package whose extension is the ASan build
    shutil.copytree(REPO / "meteor_metric", tmp_path / "meteor_metric",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "resources"))
    (tmp_path / "meteor_metric" / "resources").symlink_to(REPO / "meteor_metric" / "resources")
    shutil.copy(built, package / built.name)
    env = {"PATH": "/usr/bin:/bin", "LD_PRELOAD": runtime, "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
           "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1", "PYTHONPATH": str(tmp_path),
           "HOME": str(Path.home())}
    proc = subprocess.run([sys.executable, "-c", ASAN_CASES, str(package / built.name), json.dumps(VOCAB)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    if "ASan runtime does not come first" in proc.stderr or "interceptors" in proc.stderr[:300]:
        pytest.skip(f"the ASan runtime cannot be preloaded here: {proc.stderr[:300]}")
    assert proc.returncode == 0 and "ASAN-OK 400" in proc.stdout, proc.stderr[-3000:]


@needs_native
def test_the_cores_formula_gives_compute_metrics_doubles_bit_for_bit():
    """The core scores each pair it aligns with formula.compute_metrics' operations in C (fragmentation
    "chunks"). On 20,000 random statistics and parameters (zero lengths and matches, perfect segments, weights
    fewer than the modules, alpha, beta, gamma and delta outside [0, 1]) each of the seven values is the same
    double, or both are NaN (200,000 more were tried when it was written)."""
    rng = random.Random(11)
    for _ in range(20000):
        modules, small = rng.randint(1, 4), rng.random() < 0.3

        def count(high: int) -> int:
            return rng.randint(0, min(high, 3) if small else high)

        t_len, r_len = count(60), count(60)
        t_fw, r_fw = count(t_len), count(r_len)
        slots = [tuple(count(20) for _ in range(modules)) for _ in range(4)]
        if rng.random() < 0.2:  # every word matched by the first module: perfect with one chunk
            rest = (0,) * (modules - 1)
            slots = [(t_len - t_fw,) + rest, (r_len - r_fw,) + rest, (t_fw,) + rest, (r_fw,) + rest]
        fields = (t_len, r_len, t_fw, r_fw, *slots, rng.choice((0, 1, 1, 2, count(30))), count(40), count(40))
        weights = tuple(rng.choice((1.0, 0.6, 0.8, 0.0, rng.random())) for _ in range(rng.randint(0, modules)))
        alpha, beta, gamma, delta = (rng.choice((0.0, 1.0, 0.85, 0.2, 0.75, rng.uniform(-1, 3))) for _ in range(4))
        expected = compute_metrics(MeteorStats(*fields), weights, alpha, beta, gamma, delta)
        got = native_engine.meteor_core.metrics(fields, (weights, alpha, beta, gamma, delta))
        assert same_floats(got, (expected.precision, expected.recall, expected.f1, expected.fmean,
                                 expected.fragmentation, expected.fragmentation_penalty, expected.score)), fields


@needs_native
@pytest.mark.parametrize("config", ["default", "char_based", "util", "crossings"])
def test_segment_scores_are_the_same_doubles_from_both_engines(config):
    """The native engine's segment values come from the core's formula (except with crossings, where Python
    computes them): sentence_score with one and several references, score_pairs and pairwise give the pure-
    Python engine's doubles."""
    rng = random.Random(config)
    native, python = scorer(config, "native"), scorer(config, "python")
    texts = [" ".join(rng.choice(VOCAB[:-3]) for _ in range(rng.randint(0, 14))) for _ in range(40)]
    fields = attrgetter("score", "precision", "recall", "fmean", "fragmentation_penalty")
    for k in range(120):
        hyp, refs = texts[k % 40], [texts[(k * 7 + j) % 40] for j in range(1 + k % 3)]
        a, b = native.sentence_score(hyp, refs), python.sentence_score(hyp, refs)
        assert a.best_ref == b.best_ref and same_floats(fields(a), fields(b)), (hyp, refs)
    pairs = [(texts[k], [texts[k - 1], texts[k - 2]]) for k in range(40)]
    for a, b in zip(native.score_pairs(pairs), python.score_pairs(pairs)):
        assert a.best_ref == b.best_ref and same_floats(fields(a), fields(b))
    assert same_floats(native.pairwise(texts[:12]).ravel().tolist(), python.pairwise(texts[:12]).ravel().tolist())


@needs_native
def test_sentences_the_core_keeps_score_as_new_ones():
    """The core keeps the token ids and paraphrase walks of the last sentences it scored, by tuple object (256
    slots by address). Pairs drawn from 400 sentences (hits, second sightings, evictions, a hypothesis that is
    its reference, lists and str subclasses, which are not kept) score as copies the core has never seen, and
    as the pure-Python engine aligns them."""
    class Word(str):
        pass

    native, python = scorer("default", "native"), scorer("default", "python")
    core = native._native._table[0]
    rng = random.Random(3)
    pool = [tuple(rng.choice(VOCAB) for _ in range(rng.randint(0, 20))) for _ in range(400)]
    pool += [pool[0] + ("per", "cent"), list(pool[1]), tuple(map(Word, pool[2]))]
    native._native._add_tokens(native._native._table, sorted(set(VOCAB)))
    for k in range(3000):
        hyp = rng.choice(pool)
        ref = hyp if k % 50 == 0 else rng.choice(pool)
        got = core.score_tokens(hyp, ref, -1)
        assert same_result(got, core.score_tokens(tuple(list(hyp)), tuple(list(ref)), -1)), (hyp, ref)
        if k % 10 == 0:
            stats, alignment = python.align_tokens(tuple(hyp), tuple(ref))
            assert (got[0], got[1]) == (tuple(alignment), stats_values(stats)[:-2]), (hyp, ref)


@needs_native
def test_pairs_the_core_keeps_are_found_by_their_tuples_and_bounded():
    """The core keeps the results of the last pairs of token tuples it scored (1,024 slots by the two
    addresses): the same tuples again give the same result without scoring (the same object), within the
    candidate limit as a new pair would be; equal tuples that are other objects, lists and str subclasses are
    scored anew; 3,000 pairs later the kept ones number at most 1,024 and the first tuples are let go."""
    class Word(str):
        pass

    native, python = Meteor(impl="native", **CONFIGS["default"]), scorer("default", "python")
    core = native._native._table[0]
    native._native._add_tokens(native._native._table, sorted(set(VOCAB)))
    rng = random.Random(8)
    hyp, ref = (tuple(rng.choice(VOCAB) for _ in range(12)) for _ in range(2))
    first = core.score_tokens(hyp, ref, -1)
    stats, alignment = python.align_tokens(hyp, ref)
    assert first[:2] == (tuple(alignment), stats_values(stats)[:-2])
    assert core.score_tokens(hyp, ref, -1) is first and core.kept()[2] == 1
    found = first[2]
    assert core.score_tokens(hyp, ref, found) is first and core.score_tokens(hyp, ref, found - 1) is None
    copies = (tuple(list(hyp)), tuple(list(ref))), (list(hyp), ref), (hyp, tuple(map(Word, ref)))
    for copy in copies:
        again = core.score_tokens(*copy, -1)
        assert again is not first and same_result(again, first)
    assert core.kept()[2] == 2  # the equal tuples (the list and the str subclasses are not kept)
    references = sys.getrefcount(hyp)
    for _ in range(3000):
        core.score_tokens(tuple(rng.choice(VOCAB) for _ in range(5)), tuple(rng.choice(VOCAB) for _ in range(5)), -1)
    assert core.kept()[2] <= 1024
    assert sys.getrefcount(hyp) < references  # evicted (its sentence slot too)


@needs_native
def test_the_sentences_the_core_keeps_are_bounded():
    """At most 256 sentences of at most 256 tokens are kept, their walks only while all hold under 4 MiB:
    600 long sentences, each scored twice (so their walks are kept), leave the bound held and every score as
    the pure-Python engine's."""
    native, python = scorer("default", "native"), scorer("default", "python")
    core = native._native._table[0]
    native._native._add_tokens(native._native._table, sorted(set(VOCAB)))
    rng = random.Random(5)
    long_ones = [tuple(rng.choice(VOCAB) for _ in range(256)) for _ in range(600)]
    for k, sentence in enumerate(long_ones):
        other = long_ones[k - 1]
        first, again = core.score_tokens(sentence, other, -1), core.score_tokens(sentence, other, -1)
        assert same_result(first, again)
        if k % 100 == 0:
            stats, alignment = python.align_tokens(sentence, other)
            assert first[:2] == (tuple(alignment), stats_values(stats)[:-2])
        kept, held, _ = core.kept()
        assert kept <= 256 and held <= 4 * 2**20 + 256 * 257 * 4
    assert held > 2**20  # walks were kept
    too_long, fits = (tuple(rng.choice(VOCAB) for _ in range(n)) for n in (257, 256))
    references = sys.getrefcount(too_long), sys.getrefcount(fits)
    core.score_tokens(too_long, fits, -1)
    assert (sys.getrefcount(too_long), sys.getrefcount(fits)) == (references[0], references[1] + 1)


@needs_native
def test_a_call_made_during_another_gets_its_own_scratch_memory():
    """The core keeps one block of scratch memory for its calls. A call made while another one is under way
    (here: a finalizer the cyclic collector runs when the first call allocates its result) must not take
    that block from under it: both return what they return called alone."""
    import gc

    class Pair(tuple):  # a Match type whose allocation runs the collector (with an instance dict: the core
        pass  # makes a new one for every match, where it would hand out the one it made lately otherwise)

    def fresh(words: str) -> tuple:  # a new tuple each call: the core finds no pair or sentence it kept
        return tuple(words.split())

    table = native_engine.meteor_core.Core(b"\x00", b"\x01", 40, False, Pair, None, None)
    hyp, ref = "the cat sat on the mat by the door", "by the door the mat the cat sat"
    for token in fresh(hyp) + fresh(ref):
        table.add_token(token, None, (), False)
    alone = table.score_tokens(fresh(hyp), fresh(ref), -1)
    alone_reversed = table.score_tokens(fresh(ref), fresh(hyp), -1)
    inner = []

    class Reenters:
        def __del__(self):
            inner.append(table.score_tokens(fresh(ref), fresh(hyp), -1))

    thresholds = gc.get_threshold()
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            cycle = Reenters()
            cycle.me = cycle
        del cycle
        gc.set_threshold(1)
        gc.enable()
        outer = table.score_tokens(fresh(hyp), fresh(ref), -1)
    finally:
        gc.set_threshold(*thresholds)
        gc.enable()
    assert inner, "the collector ran no finalizer during the call: the test tested nothing"
    assert outer == alone
    assert inner == [alone_reversed] * len(inner)


@needs_native
def test_the_core_shares_a_match_only_where_it_is_immutable():
    """The core reuses the Match it made lately for the same five values (a tuple without an instance dict:
    nothing about it can change), so alignments that hold equal matches hold one object; a match type with
    an instance dict gets a new object every time. The values are those of the jar's alignment either way."""

    class Loose(tuple):  # instances have a __dict__: an attribute set on one must not show on another
        pass

    words = tuple("the cat sat on the mat".split())
    for match_type, shared in ((Match, True), (Loose, False)):
        table = native_engine.meteor_core.Core(b"\x00", b"\x01", 40, False, match_type, None, None)
        for token in words:
            table.add_token(token, None, (), False)
        first, again = (table.score_tokens(tuple(list(words)), tuple(list(words)), -1)[0] for _ in range(2))
        assert [tuple(m) for m in first] == [tuple(m) for m in again] == [(k, 1, k, 1, 0) for k in range(6)]
        assert [a is b for a, b in zip(first, again)] == [shared] * 6, match_type


@needs_native
def test_native_alignments_cost_the_cyclic_collector_nothing():
    """The core's Match objects (five ints, no instance dict) are untracked by the cyclic GC: a scorer's pair
    cache and returned alignments held 75,000 of them after 4,000 WMT pairs, and each full collection
    traversed them all (23 us per pair in a sentence_score loop, 6 after)."""
    import gc

    meteor = Meteor(impl="native")
    result = meteor.sentence_score("the cat sat on the mat", "a cat sat on a mat")
    assert len(result.alignment) == 4  # cat sat on mat
    assert not any(gc.is_tracked(m) for m in result.alignment)
    assert not gc.is_tracked(result.alignment)  # CPython would not untrack a tuple of a tuple subclass's items
    gc.collect()  # the collector untracks the cache's plain tuples in one pass (the core's are untracked already)
    assert not any(map(gc.is_tracked, meteor._pair_cache.values()))
    assert meteor.sentence_score("the cat sat on the mat", "a cat sat on a mat") == result  # from the cache
    assert [tuple(m) for m in result.alignment] == [tuple(m) for m in scorer("default", "python").sentence_score(
        "the cat sat on the mat", "a cat sat on a mat").alignment]


@needs_native
def test_the_core_hashes_and_measures_tokens_as_java_does():
    """The core computes each token's String.hashCode and length() itself: 'Aa' and 'BB' share a hash
    (an exact match to the jar), and a character outside the BMP counts two UTF-16 units."""
    hyp, ref = "Aa x\U0001F600 \ud83d", "BB x\U0001F600 \ud83d"
    results = [Meteor(impl=impl, modules=["exact"], normalization="no_norm", char_based=True).sentence_score(hyp, ref)
               for impl in ("python", "native")]
    assert results[0].stats == results[1].stats
    assert results[1].stats.test_length == 2 + 3 + 1 and len(results[1].alignment) == 3


@needs_native
def test_threads_sharing_a_scorer_get_the_reference_statistics(monkeypatch):
    """Eight threads add new words to one native scorer's table at once, and the table is replaced under
    them (here every 60 words): every pair still gets the pure-Python engine's statistics."""
    import random
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(native_engine, "MAX_TABLE_TOKENS", 60)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        rng = random.Random(3)
        words = VOCAB + [f"w{k}" for k in range(300)]
        pairs = [(" ".join(rng.choices(words, k=10)), " ".join(rng.choices(words, k=10))) for _ in range(600)]
        native = Meteor(impl="native")
        with ThreadPoolExecutor(8) as pool:
            got = list(pool.map(lambda pair: native.sentence_score(*pair).stats, pairs))
    finally:
        sys.setswitchinterval(interval)
    reference = scorer("default", "python")
    assert got == [reference.sentence_score(*pair).stats for pair in pairs]
