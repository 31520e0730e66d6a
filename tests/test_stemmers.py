"""The stemmers against the METEOR 1.5 jar's own stems.

tests/data/stems_<language>.tsv.gz were made by scripts/stemmer_oracle/check.py from the jar's
Snowball classes (real words with case variants, words where snowballstemmer 2.2.0 differs from
the jar, synthetic words). The live test runs the jar itself and skips without Java or the jar.
"""

from __future__ import annotations

import gzip
import importlib.util
import random
import threading
from pathlib import Path

import pytest

from meteor_metric.meteor15.stemmers import (FAST_LANGUAGES, LANGUAGES, UNVERIFIED_LANGUAGES, _StemCache,
                                             distribution_version, get_stemmer, stem_uncached)

DATA = Path(__file__).parent / "data"
ORACLE = Path(__file__).resolve().parents[1] / "scripts" / "stemmer_oracle" / "oracle.py"


def golden(language: str) -> dict[str, str]:
    with gzip.open(DATA / f"stems_{language}.tsv.gz", "rt", encoding="utf-8", newline="\n") as f:
        return dict(line.rstrip("\n").split("\t") for line in f)


GOLDEN = [lang for lang in LANGUAGES if (DATA / f"stems_{lang}.tsv.gz").exists()]


@pytest.mark.parametrize("language", GOLDEN)
def test_golden_stems(language):
    stem = get_stemmer(language)
    expected = golden(language)
    assert len(expected) >= 5000
    wrong = {w: (s, stem(w)) for w, s in expected.items() if stem(w) != s}
    assert not wrong, f"{len(wrong)} of {len(expected)} differ (word: (jar, ours)): {list(wrong.items())[:10]}"


@pytest.mark.parametrize("language", GOLDEN)
def test_stems_in_one_call_are_the_jars(language):
    """The cache's many() (a batch's new words in one PyStemmer call) on a fresh cache gives the jar's golden stems, in
    order, with repeats, words cached before, and words PyStemmer cannot take (a lone surrogate in the batch:
    each word on its own; astral characters: the pure-Python code) stemmed as stem() stems them."""
    expected = golden(language)
    words = list(expected)
    odd = ["runn\ud800ing", "\U0001F600ings", "", "a\x00bs"]
    cache = _StemCache(language)
    cache[words[0]]  # cached before
    batch = words[:3000] + words[:10] + odd
    assert cache.many(batch) == [expected[w] for w in words[:3000] + words[:10]] + \
        [_StemCache(language).stem(w) for w in odd]
    assert cache.many(words[3000:]) == [expected[w] for w in words[3000:]]  # no surrogate


@pytest.mark.parametrize("language", GOLDEN)
def test_uncached_stems_are_the_jars(language):
    """stem_uncached (what the native engine asks for the tokens its table lacks: it keeps their stems itself)
    gives the jar's golden stems, in order, with repeats; an ASCII batch leaves the cache as it was, a batch with
    words PyStemmer cannot take is stemmed as stem() stems them."""
    expected = golden(language)
    words = list(expected)
    ascii_words = [w for w in words if w.isascii()][:2000]
    cache = _StemCache(language)
    batch = ascii_words + ascii_words[:5]
    assert stem_uncached(cache.__getitem__, batch) == [expected[w] for w in batch]
    assert len(cache) == 0 or language not in FAST_LANGUAGES
    odd = ["runn\ud800ing", "\U0001F600ings", "", "a\x00bs"]
    assert stem_uncached(cache.__getitem__, words[:3000] + odd) == [expected[w] for w in words[:3000]] + \
        [_StemCache(language).stem(w) for w in odd]


def test_the_version_read_beside_a_module_is_the_installed_distributions(tmp_path):
    """Oracle: importlib.metadata, which the dist-info directory beside the module replaces (it takes 7-9 ms
    to import and search); where there is none, or two, importlib.metadata answers."""
    import types
    from importlib.metadata import version

    stemmer = pytest.importorskip("Stemmer")
    assert distribution_version(stemmer, "PyStemmer") == version("PyStemmer")
    assert distribution_version(pytest, "pytest") == version("pytest")  # a package: no dist-info in its folder
    fake = types.ModuleType("fake")
    fake.__file__ = str(tmp_path / "fake.py")
    for name in ("PyTest-0.0.1.dist-info", "pytest-0.0.2.dist-info"):
        (tmp_path / name).mkdir()
        expected = "0.0.1" if name.startswith("PyTest") else version("pytest")  # one, then two: ambiguous
        assert distribution_version(fake, "pytest") == expected


@pytest.mark.parametrize("language", sorted(FAST_LANGUAGES))
def test_pystemmer_gives_the_pure_python_stems(language):
    """Where PyStemmer 2.2.0.x is installed it stems these languages, with the stems of the pure-Python
    code (which the jar's golden stems check above): on every golden word, and on words it cannot take
    (a character outside the BMP, a lone surrogate), which go to the pure-Python code."""
    pytest.importorskip("Stemmer")
    fast, pure = _StemCache(language), _StemCache(language)
    assert fast._fast is not None, "PyStemmer is installed but not used (another version than 2.2.0.x?)"
    pure._fast = None
    words = list(golden(language)) + ["runn\ud800ing", "\U0001F600ings", "", "a\x00bs"]
    stems = [fast.stem(w) for w in words]
    assert stems == [pure.stem(w) for w in words]
    assert language != "english" or stems[-4] == "runn\ud800"


def test_arabic_lookup_table():
    """The jar's LookupTableStemmer: equal stem hashes (what the stem matcher compares) for every word
    of a jar sample (table words, words not in the table, words whose hash collides with another's)."""
    from meteor_metric.core.javafmt import java_string_hash

    stem = get_stemmer("arabic-buckwalter-reduced")
    expected = golden("arabic-buckwalter-reduced")
    assert len(expected) >= 5000
    wrong = {w: (s, stem(w)) for w, s in expected.items() if java_string_hash(stem(w)) != java_string_hash(s)}
    assert not wrong, list(wrong.items())[:10]
    assert stem("$&wn") == "$a>on" and stem("not-in-table") == "not-in-table"


def test_languages_without_golden_stems_are_declared_unverified():
    assert frozenset(LANGUAGES) - frozenset(GOLDEN) == UNVERIFIED_LANGUAGES
    assert {"english", "german", "french", "russian"} <= set(GOLDEN)


@pytest.mark.parametrize("language", ["czech", "other", "English", "arabic", ""])
def test_no_stemmer(language):
    with pytest.raises(ValueError, match="No stemmer for language"):
        get_stemmer(language)


@pytest.mark.parametrize("word,stem", [
    ("running", "run"), ("Running", "Run"), ("RUNNING", "RUNNING"), ("generously", "generous"),
    ("\U0001F600running", "\U0001F600run"), ("", ""),
])
def test_english_examples(word, stem):
    assert get_stemmer("english")(word) == stem


@pytest.mark.parametrize("language,word,stem", [
    ("german", "arbeitsverzeichnisse", "arbeitsverzeichniss"),  # no niss rule
    ("german", "Häuser", "Haus"),
    ("french", "ARCH", "ARCH"),  # H is a plain letter
    ("french", "égoïste", "égoïst"),  # ï is a plain vowel
    ("french", "ambiguë", "ambigu"),  # ë after gu in RV
    ("french", "aiguë", "aiguë"),  # gu not in RV
    ("portuguese", "revolução", "revoluçã"),  # no -ução rule
    ("portuguese", "revoluciones", "revolu"),  # -uciones -> u
    ("russian", "зелёными", "зелён"),  # ё kept
])
def test_old_algorithm_examples(language, word, stem):
    assert get_stemmer(language)(word) == stem


def test_cached_and_shared():
    stem = get_stemmer("english")
    assert get_stemmer("english").__self__ is stem.__self__
    assert stem("connections") == stem("connections") == "connect"


def test_shared_snowballstemmer_untouched():
    """Patching a private copy of a generated class leaves snowballstemmer's own class as it was."""
    from snowballstemmer.portuguese_stemmer import PortugueseStemmer

    get_stemmer("portuguese")("revolução")
    assert PortugueseStemmer().stemWord("revolução") == "revolu"


def test_threads_agree():
    """One stemmer object used from several threads at once (uncached calls) stays exact."""
    from meteor_metric.meteor15.stemmers import _StemCache

    expected = golden("german")
    words = sorted(expected)[:3000]
    cache = _StemCache("german")
    results: list[bool] = []

    def work(seed: int) -> None:
        order = words[:]
        random.Random(seed).shuffle(order)
        results.append(all(cache.stem(w) == expected[w] for w in order))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 4


def _oracle():
    spec = importlib.util.spec_from_file_location("stemmer_oracle", ORACLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("language", GOLDEN)
def test_live_jar_sample(language):
    oracle = _oracle()
    if not oracle.available():
        pytest.skip("needs java, javac and meteor-1.5.jar (METEOR_JAR)")
    rng = random.Random(language)  # reproducible sample
    words = rng.sample(sorted(golden(language)), 300)
    letters = "".join(sorted({c for w in words for c in w}))
    words += ["".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) for _ in range(300)]
    jar = oracle.jar_stems(language, words)
    stem = get_stemmer(language)
    wrong = {w: (s, stem(w)) for w, s in jar.items() if stem(w) != s}
    assert not wrong, f"word: (jar, ours): {list(wrong.items())[:10]}"
