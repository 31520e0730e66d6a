"""The WordNet synonym table against METEOR 1.5's SynonymDictionary.

The golden sample (tests/data/synonyms_golden.jsonl) holds the jar's own decisions, computed from the
jar's english.synsets / english.exceptions by ``scripts/build_wordnet_tables.py --golden``. The
equivalence tests read those files straight out of pycocoevalcap's meteor-1.5.jar and skip without it.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import threading
from pathlib import Path

import pytest

from meteor_metric.meteor15 import synonyms
from meteor_metric.meteor15.native_engine import native_available, wordnet_index
from meteor_metric.resources import resource_path
from meteor_metric.meteor15.synonyms import MORPH_RULES, SynonymTable, SynonymTableError

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "synonyms_golden.jsonl"


def _build_script():
    spec = importlib.util.spec_from_file_location("build_wordnet_tables",
                                                  ROOT / "scripts" / "build_wordnet_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _installed_jar() -> Path | None:
    """pycocoevalcap's meteor-1.5.jar, found without importing pycocoevalcap."""
    spec = importlib.util.find_spec("pycocoevalcap")
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location) / "meteor" / "meteor-1.5.jar"
        if path.is_file():
            return path
    return None


@pytest.fixture(scope="module")
def english() -> SynonymTable:
    return SynonymTable.english()


@pytest.fixture(scope="module")
def native_ids():
    """The compiled core's WordNet index over the shipped tables (what the native engine looks new words up in)."""
    if not native_available():
        pytest.skip("the compiled core is not built")
    return wordnet_index(SynonymTable.load(resource_path("wordnet", "synsets.gz"),
                                           resource_path("wordnet", "exceptions.gz"), lazy=True)).ids


@pytest.fixture(scope="module")
def script():
    return _build_script()


@pytest.fixture(scope="module")
def jar(script):
    path = _installed_jar()
    if path is None:
        pytest.skip("pycocoevalcap's meteor-1.5.jar is not installed (pip install pycocoevalcap==1.2)")
    return script.JarModel.open(path)


@pytest.fixture(scope="module")
def both_sets(jar, script, english):
    """The jar's and our synonym ids for every table word and exception form, a seeded sample of the
    other strings that have synonyms (inflections reached by morph), and strings that have none."""
    everything = sorted(script.universe(jar.word_to_synsets, jar.word_to_bases))
    rng = random.Random(1505)
    words = {*jar.word_to_synsets, *jar.word_to_bases, *rng.sample(everything, 40_000)}
    words |= {w.upper() for w in rng.sample(everything, 2000)} | {"", "s", "ss", "sss", "ful", "é", "😀s"}
    return {w: jar.syn(w) for w in words}, {w: english.synsets(w) for w in words}


# -- (a) the jar's own files ---------------------------------------------------------------------------

def test_same_words_as_the_jar(jar, english):
    assert len(english) == len(jar.word_to_synsets)
    assert all(w in english for w in jar.word_to_synsets)


def test_synonym_ids_equal_the_jars(both_sets):
    jar_sets, our_sets = both_sets
    differing = [w for w in jar_sets if jar_sets[w] != our_sets[w]]
    assert not differing, differing[:20]


def test_native_index_ids_equal_the_jars(both_sets, native_ids):
    jar_sets, _ = both_sets
    differing = [w for w in jar_sets if frozenset(native_ids(w)) != jar_sets[w]]
    assert not differing, differing[:20]


def test_pair_decisions_equal_the_jars(both_sets, script):
    """Every pair of the words above: those sharing an id (incl. cross-POS collisions) and all others."""
    jar_sets, our_sets = both_sets
    nonempty = {w: s for w, s in jar_sets.items() if s}
    assert script.differing_pairs(nonempty, {w: s for w, s in our_sets.items() if s}) == 0


def test_cross_pos_collisions_match(jar, english):
    """The jar's id 1740 names a noun (entity), a verb (breathe), an adjective (able) and an adverb."""
    shared = {w for w, ids in jar.word_to_synsets.items() if 1740 in ids}
    assert {"entity", "breathe", "able", "a_cappella"} <= shared
    for word in shared:
        assert 1740 in english.synsets(word)
    assert not english.synsets("entity").isdisjoint(english.synsets("able"))


# -- (b) golden sample of the jar's decisions -----------------------------------------------------------

@pytest.mark.parametrize("reader", ["python", "native"])
def test_golden_sample(request, reader):
    synsets = request.getfixturevalue("english").synsets if reader == "python" else \
        (lambda word: frozenset(request.getfixturevalue("native_ids")(word)))
    rows = [json.loads(line) for line in GOLDEN.read_text(encoding="ascii").splitlines()]
    assert len(rows) == 2000
    assert {"synset", "collision", "morph", "exception", "exception-not-morph", "case", "edge",
            "random"} <= {r["kind"] for r in rows}
    wrong = [r for r in rows if (not synsets(r["a"]).isdisjoint(synsets(r["b"]))) != r["match"]]
    assert not wrong, wrong[:10]


def test_native_index_equals_the_python_table(english, native_ids):
    """Every word and exception form, each 7th word with every rule's suffix added, each word less its last
    character, and edge cases (empty, short, "ss", non-ASCII, very long)."""
    words = [*english, *english._tables()[1]]  # (the exception forms: no public accessor)
    words += [w + suffix for w in words[::7] for suffix, _ in MORPH_RULES] + [w[:-1] for w in words]
    words += ["", "s", "ss", "sss", "es", "é", "cafés", "dogsé", "😀s", "men", "ies", "ing", "dog" * 10_000]
    differing = [w for w in words if native_ids(w) != tuple(sorted(english.lookup(w)))]
    assert not differing, differing[:20]


# -- (c) morphology -------------------------------------------------------------------------------------

@pytest.mark.parametrize("word, base", [
    ("glass", "glass"), ("classes", "class"), ("as", "as"), ("ox", "ox"), ("men", "man"),
    ("women", "woman"), ("flies", "fly"), ("boxes", "box"), ("buzzes", "buzz"), ("churches", "church"),
    ("dishes", "dish"), ("gases", "gas"), ("dogs", "dog"), ("leaves", "leave"), ("cupfuls", "cupful"),
    ("running", ""), ("happier", ""), ("Dogs", ""), ("xyzzyq", ""),
])
def test_morph_english(english, word, base):
    assert english.morph(word) == base


def test_morph_takes_the_first_rule_that_gives_a_word():
    table = SynonymTable.from_mappings({"foxe": [1], "fox": [2]}, {})
    assert table.morph("foxes") == "foxe"  # ("s", "") comes before ("xes", "x")
    assert SynonymTable.from_mappings({"fox": [2]}, {}).morph("foxes") == "fox"
    assert table.morph("foxful") == ""  # no rule ends in "l"


def test_synsets_union_of_own_and_stem():
    table = SynonymTable.from_mappings({"glasses": [5], "glass": [6], "glas": [7]}, {})
    assert table.synsets("glasses") == {5, 6}
    assert table.synsets("glass") == {6}  # "ss": morph returns the word itself
    assert table.synsets("Glasses") == frozenset()


def test_exceptions_replace_morph():
    table = SynonymTable.from_mappings({"ax": [1], "axe": [2], "axis": [3], "camper": [4], "camp": [5]},
                                       {"axes": ["ax", "axis"], "camper": ["camper"]})
    assert table.synsets("axes") == {1, 3}
    assert table.synsets("camper") == {4}


def test_english_exceptions(english):
    assert english.synsets("ran") == english.synsets("run")
    assert english.synsets("geese") >= english.synsets("goose")
    assert english.synsets("better") >= english.synsets("good") | english.synsets("well")
    assert english.synsets("axes").isdisjoint(english.synsets("axe") - english.synsets("ax")
                                              - english.synsets("axis"))


def test_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(synonyms, "_CACHE_LIMIT", 4)
    table = SynonymTable.from_mappings({"dog": [1]}, {})
    for k in range(20):
        assert table.synsets(f"dog{'s' * (k % 2)}{k}") == frozenset()
    assert table.synsets("dogs") == {1}
    assert len(table._cache) <= 4


# -- the shipped files ----------------------------------------------------------------------------------

def test_shipped_files_are_small_and_licensed():
    folder = resource_path("wordnet")
    # the jar's tables (synsets.gz, exceptions.gz: 1.4 MB), the nltk profile's nltk_synsets.gz (0.9 MB)
    # and the wn_similarity module's hypernyms.gz (0.15 MB)
    assert sum(p.stat().st_size for p in folder.iterdir()) < 2_600_000
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in (folder / "LICENSE").read_text()


def test_english_is_loaded_once_across_threads(monkeypatch):
    monkeypatch.setattr(synonyms, "_ENGLISH", None)
    got: list[SynonymTable] = []
    threads = [threading.Thread(target=lambda: got.append(SynonymTable.english())) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 6 and all(t is got[0] for t in got)
    assert len(got[0]) == 147_306


def _gz(path: Path, text: str) -> Path:
    path.write_bytes(gzip.compress(text.encode("ascii")))
    return path


def _parse(reader: str, synsets_path: Path, exceptions_path: Path):
    """The tables parsed by the Python reader (SynonymTable.load) or the compiled core's (its WordNet index)."""
    if reader == "python":
        return SynonymTable.load(synsets_path, exceptions_path)
    if not native_available():
        pytest.skip("the compiled core is not built")
    return wordnet_index(SynonymTable.load(synsets_path, exceptions_path, lazy=True)).ids


def test_missing_shipped_file_raises(monkeypatch, tmp_path):
    monkeypatch.setattr(synonyms, "_ENGLISH", None)
    monkeypatch.setattr(synonyms, "resource_path", lambda *parts: tmp_path.joinpath(*parts))
    with pytest.raises(SynonymTableError, match="cannot be read"):
        SynonymTable.english()


@pytest.mark.parametrize("content", [
    b"not gzip at all",
    gzip.compress(b"meteor-wordnet-synsets 1 1\ndog\n1\n")[:-6],  # truncated
])
def test_corrupt_gzip_raises(tmp_path, content):
    bad = tmp_path / "synsets.gz"
    bad.write_bytes(content)
    with pytest.raises(SynonymTableError, match="corrupt"):
        SynonymTable.load(bad, resource_path("wordnet", "exceptions.gz"))


@pytest.mark.parametrize("reader", ["python", "native"])
@pytest.mark.parametrize("text, message", [
    ("something else\n", "unexpected header"),
    ("meteor-wordnet-synsets 2 1\ndog\n1\n", "unexpected header"),
    ("meteor-wordnet-synsets 1 2\ndog\n1\n", "lines for 2 words"),
    ("meteor-wordnet-synsets 1 1\ndog\n1", "truncated"),
    ("meteor-wordnet-synsets 1 1\ndog\n1x\n", "malformed ids"),
    ("meteor-wordnet-synsets 1 1\ndog\n\n", "malformed ids"),
    ("meteor-wordnet-synsets 1 2\ndog\ndog\n1\n2\n", "duplicate"),
    ("meteor-wordnet-synsets 1 1\ndog\n1234567890123456789\n", "malformed ids"),  # past an int64's digits
    ("meteor-wordnet-synsets 1 1\ndog\n1 \xe9\n", "not ASCII"),
])
def test_malformed_synsets_raise(tmp_path, text, message, reader):
    path = tmp_path / "s.gz"
    path.write_bytes(gzip.compress(text.encode("latin-1")))
    with pytest.raises(SynonymTableError, match=f"WordNet table {path}.*{message}"):
        _parse(reader, path, resource_path("wordnet", "exceptions.gz"))


@pytest.mark.parametrize("reader", ["python", "native"])
@pytest.mark.parametrize("text, message", [
    ("meteor-wordnet-exceptions 1 1\nform\n", "malformed line 'form'"),
    ("meteor-wordnet-exceptions 1 2\nform base\n", "1 forms, header says 2"),
    ("meteor-wordnet-exceptions 1 1\nform  base\n", "malformed line 'form  base'"),
    ("meteor-wordnet-exceptions 1 1\nform base \n", "malformed line 'form base '"),
    ("meteor-wordnet-exceptions 1 2\nform base\nform other\n", "1 forms, header says 2"),
])
def test_malformed_exceptions_raise(tmp_path, text, message, reader):
    with pytest.raises(SynonymTableError, match=f"WordNet table {tmp_path / 'e.gz'}: {message}"):
        _parse(reader, _gz(tmp_path / "s.gz", "meteor-wordnet-synsets 1 1\ndog\n1\n"), _gz(tmp_path / "e.gz", text))


def test_a_lazy_table_checks_its_text_on_first_use(tmp_path):
    table = SynonymTable.load(_gz(tmp_path / "s.gz", "meteor-wordnet-synsets 1 1\ndog\n1x\n"),
                              resource_path("wordnet", "exceptions.gz"), lazy=True)
    with pytest.raises(SynonymTableError, match="malformed ids"):
        table.synsets("dog")


@pytest.mark.parametrize("reader", ["python", "native"])
def test_small_table_loads(tmp_path, reader):
    synsets = _parse(reader, _gz(tmp_path / "s.gz", "meteor-wordnet-synsets 1 2\ndog\nhound\n1 2\n2\n"),
                     _gz(tmp_path / "e.gz", "meteor-wordnet-exceptions 1 1\ndoggies dog\n"))
    synsets = synsets.synsets if reader == "python" else synsets
    assert set(synsets("hounds")) == {2}
    assert set(synsets("doggies")) == {1, 2}
