"""The jar's stemmers: Snowball (exact old-build behaviour) and the Arabic lookup table.

The jar stems with the Snowball Java classes of about 2006 (``org.tartarus.snowball.ext``), on the
token as it is (no lowercasing). The backend here is the pure-Python code of ``snowballstemmer``
2.2.0 (pinned; the PyStemmer C extension that ``snowballstemmer.stemmer()`` may pick is never
used). 2.2.0 gives the jar's stems as it is for english, spanish, dutch, italian, norwegian,
swedish, romanian and turkish. For the others it has later revisions of the algorithm, or lacks
a quirk of the jar's code; each difference is undone by a small subclass (tables are patched only
in a private copy of the generated module, never in snowballstemmer's own):

* german: no "niss" rule (2.2.0 turns ``-nisse``/``-nissen``/``-nisses`` into ``-nis``; the jar
  keeps ``-niss``).
* russian: no ``ё`` -> ``е`` prelude; to the jar ``ё`` is a non-vowel that no suffix contains.
* french: no diaeresis markers (2.2.0 writes ``ë``/``ï`` as ``He``/``Hi`` and deletes every ``H``);
  ``ë``/``ï`` are plain vowels, ``H`` a plain letter, and step 4 keeps the old rule "``ë``: delete
  if preceded by ``gu``" (both in RV).
* portuguese: the jar's step-1 table has ``logía(s)`` and ``ución``/``uciones`` where 2.2.0 has
  ``logia(s)`` and ``ução``/``uções``.
* hungarian: the jar's tables were written in ISO-8859-1, so it has ``õ``/``û`` wherever the
  algorithm has ``ő``/``ű`` (as vowels and in ``-ből``/``-ről``/``-től``).
* danish, finnish: a "consonant" is any non-vowel (2.2.0: only the letters b-z that are not vowels).
* finnish: the jar runs a table entry's condition routine on a separate, empty stemmer object, so
  the entries that have one (``-den``/``-tten``/``-siin`` after VI, ``-seen`` after a long vowel)
  never match, and the next shorter ending is tried.

Java strings are UTF-16: a character outside the BMP counts as two (non-vowel) letters there, and
is stemmed so here too.

For the eight languages whose 2.2.0 code needs no patch, a word is stemmed by PyStemmer 2.2.0.x (the
Snowball project's C binding of the same 2.2.0 algorithms, about 20x faster), where it is installed: it
gives the jar's stems on every word of the golden lists (tests/test_stemmers.py) and the pure-Python
ones on 154,496 English words of the shared data and the paraphrase vocabulary. A word with a character
outside the BMP, or a lone surrogate, goes to the pure-Python code; so does every word where PyStemmer is
missing or of another version (3.x has later revisions of the algorithms).
"""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import os
import threading
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable, Sequence

from ..core.javafmt import java_string_hash
from ..resources import resource_path

if TYPE_CHECKING:  # snowballstemmer is imported when a pure-Python stemmer is first needed: importing
    # it imports every language (about 20,000 objects for the garbage collector to scan)
    from snowballstemmer.among import Among
    from snowballstemmer.basestemmer import BaseStemmer


def distribution_version(module: ModuleType, distribution: str) -> str:
    """The installed version of ``distribution``, which provides ``module``: read off the one
    ``<name>-<version>.dist-info`` directory beside the module (where pip puts both), else found by
    ``importlib.metadata`` (7-9 ms to import and search, with compiled bytecode)."""
    prefix, suffix = distribution.lower() + "-", ".dist-info"
    try:
        names = os.listdir(Path(module.__file__).resolve().parent)
    except (OSError, TypeError):  # unreadable, or a module without a file
        names = []
    found = [name[len(prefix):-len(suffix)] for name in names
             if name.lower().startswith(prefix) and name.endswith(suffix)]
    if len(found) == 1:
        return found[0]
    from importlib.metadata import version

    return version(distribution)


try:
    import Stemmer as _pystemmer

    if not distribution_version(_pystemmer, "PyStemmer").startswith("2.2.0."):
        _pystemmer = None
except ImportError:  # an optional accelerator: the pure-Python code gives the same stems
    _pystemmer = None

LANGUAGES = ("english", "french", "german", "spanish", "portuguese", "russian", "danish", "romanian",
             "hungarian", "turkish", "finnish", "dutch", "italian", "norwegian", "swedish")
"""The jar's long language names that have a Snowball stemmer."""

FAST_LANGUAGES = frozenset({"english", "spanish", "dutch", "italian", "norwegian", "swedish", "romanian",
                            "turkish"})
"""Languages stemmed by PyStemmer 2.2.0.x where it is installed (the jar's stems, as the pure-Python code)."""

UNVERIFIED_LANGUAGES: frozenset[str] = frozenset()
"""Languages whose stemmer is not proven equal to the jar's on a large real vocabulary."""


def _snowball_module(language: str, private: bool = False) -> ModuleType:
    """snowballstemmer's generated module; ``private``: a fresh copy whose tables may be patched."""
    name = f"snowballstemmer.{language}_stemmer"
    if not private:
        return importlib.import_module(name)
    origin = importlib.util.find_spec(name).origin
    spec = importlib.util.spec_from_file_location(f"snowballstemmer._meteor_{language}", origin)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _table(entries: list[tuple[str, int]]) -> list[Among]:
    """A backward Snowball among table (sorted on reversed strings, with suffix links)."""
    from snowballstemmer.among import Among

    entries = sorted(entries, key=lambda e: e[0][::-1])
    table = []
    for i, (s, result) in enumerate(entries):
        link = max((j for j in range(i) if s.endswith(entries[j][0]) and entries[j][0] != s),
                   key=lambda j: len(entries[j][0]), default=-1)
        table.append(Among(s, link, result))
    return table


def _patch_table(table: list[Among], renames: dict[str, str]) -> list[Among]:
    """A backward table with strings renamed (the same table if none is)."""
    if not any(renames.get(a.s, a.s) != a.s for a in table):
        return table
    if any(a.method is not None for a in table):
        raise ValueError("cannot rebuild a table with routines")
    return _table([(renames.get(a.s, a.s), a.result) for a in table])


def _grouping(chars: str, lo: int, hi: int) -> list[int]:
    """Snowball bit set of ``chars`` for code points ``lo``..``hi``."""
    bits = [0] * ((hi - lo) // 8 + 1)
    for c in chars:
        bits[(ord(c) - lo) >> 3] |= 1 << ((ord(c) - lo) & 7)
    return bits


def _german() -> type[BaseStemmer]:
    base = _snowball_module("german").GermanStemmer

    class German(base):
        def eq_s_b(self, s: str) -> bool:
            return s != "nis" and super().eq_s_b(s)  # "nis" occurs only in the niss rule

    return German


def _russian() -> type[BaseStemmer]:
    base = _snowball_module("russian").RussianStemmer

    class Russian(base):
        def eq_s(self, s: str) -> bool:
            return s != "\u0451" and super().eq_s(s)  # "ё" occurs only in the prelude

    return Russian


def _french() -> type[BaseStemmer]:
    base = _snowball_module("french").FrenchStemmer

    class French(base):
        def stemWord(self, word: str) -> str:
            if "H" not in word:
                return super().stemWord(word)
            # 2.2.0 gives "H" rules of its own; the jar's H is a non-vowel like any private-use letter.
            hidden = next(c for c in map(chr, range(0xE000, 0xF900)) if c not in word)
            return super().stemWord(word.replace("H", hidden)).replace(hidden, "H")

        def eq_s(self, s: str) -> bool:
            return s not in ("\u00eb", "\u00ef") and super().eq_s(s)  # only in the He/Hi prelude

        def _FrenchStemmer__r_residual_suffix(self) -> bool:
            if super()._FrenchStemmer__r_residual_suffix():
                return True
            # ë: delete if preceded by gu, all in RV.
            if self.current.endswith("gu\u00eb", 0, self.limit) and self.limit - 3 >= self.I_pV:
                self.ket = self.limit
                self.bra = self.limit - 1
                return self.slice_del()
            return False

    return French


def _portuguese() -> type[BaseStemmer]:
    module = _snowball_module("portuguese", private=True)
    cls = module.PortugueseStemmer
    cls.a_5 = _patch_table(cls.a_5, {"logia": "log\u00eda", "logias": "log\u00edas",
                                     "u\u00e7a~o": "uci\u00f3n", "u\u00e7o~es": "uciones"})
    return cls


def _hungarian() -> type[BaseStemmer]:
    module = _snowball_module("hungarian", private=True)
    cls = module.HungarianStemmer
    latin1 = str.maketrans("\u0151\u0171", "\u00f5\u00fb")
    for name, value in list(vars(cls).items()):
        if name.startswith("a_"):
            setattr(cls, name, _patch_table(value, {a.s: a.s.translate(latin1) for a in value}))
    cls.g_v = _grouping("aeiou\u00e1\u00e9\u00ed\u00f3\u00f6\u00fa\u00fc\u00f5\u00fb", 97, 369)
    return cls


def _danish() -> type[BaseStemmer]:
    base = _snowball_module("danish").DanishStemmer

    class Danish(base):
        def in_grouping_b(self, s: list[int], lo: int, hi: int) -> bool:
            if s is base.g_c:  # undouble: the jar takes any non-vowel
                return self.out_grouping_b(base.g_v, 97, 248)
            return super().in_grouping_b(s, lo, hi)

    return Danish


def _finnish() -> type[BaseStemmer]:
    module = _snowball_module("finnish", private=True)
    base = module.FinnishStemmer
    for table in (v for k, v in vars(base).items() if k.startswith("a_")):
        for entry in table:
            if entry.method is not None:
                entry.method = "_jar_among_routine"

    class Finnish(base):
        def _jar_among_routine(self) -> bool:
            return False

        def in_grouping_b(self, s: list[int], lo: int, hi: int) -> bool:
            if s is base.g_C:  # the jar's consonant is any non-vowel
                return self.out_grouping_b(base.g_V1, 97, 246)
            return super().in_grouping_b(s, lo, hi)

    return Finnish


_FIXED = {"german": _german, "russian": _russian, "french": _french, "portuguese": _portuguese,
          "hungarian": _hungarian, "danish": _danish, "finnish": _finnish}


def _stemmer_class(language: str) -> type[BaseStemmer]:
    if language in _FIXED:
        return _FIXED[language]()
    module = _snowball_module(language)
    return getattr(module, language.capitalize() + "Stemmer")


def _utf16(word: str) -> str:
    """``word`` with each character outside the BMP as its two UTF-16 surrogates."""
    out = []
    for c in word:
        n = ord(c) - 0x10000
        out.append(c if n < 0 else chr(0xD800 + (n >> 10)) + chr(0xDC00 + (n & 0x3FF)))
    return "".join(out)


class _StemCache(dict):
    """word -> stem, growing with the vocabulary; a missing word is stemmed under a lock (a
    Snowball object is stateful), so lookups are plain dict reads and safe from several threads."""

    def __init__(self, language: str):
        super().__init__()
        self._language = language
        self._stemmer: BaseStemmer | None = None  # the pure-Python one, made when first needed
        # maxCacheSize 0: PyStemmer's own cache (a dict of lists) would hold each word a second time, slow
        # stemWord down (0.96 -> 0.29 us a new word) and give the garbage collector a list per word to scan
        self._fast = _pystemmer.Stemmer(language, 0) if _pystemmer and language in FAST_LANGUAGES else None
        self._lock = threading.Lock()

    def __missing__(self, word: str) -> str:
        self[word] = stem = self.stem(word)
        return stem

    def many(self, words: Sequence[str]) -> list[str]:
        """The stems of ``words`` (cached); the new ones PyStemmer takes stemmed in one call under one lock
        (0.85 against 2.1 us a new word one by one), the others as :meth:`stem` stems them."""
        new = [w for w in dict.fromkeys(words) if w not in self and (w.isascii() or max(w) <= "\uffff")]
        if new and self._fast is not None:
            try:
                with self._lock:
                    stems = self._fast.stemWords(new)
            except UnicodeEncodeError:  # a lone surrogate among them: each word on its own, below
                pass
            else:
                self.update(zip(new, stems))
        return [self[w] for w in words]

    def uncached(self, words: Sequence[str]) -> list[str]:
        """The stems of ``words`` for a caller that keeps them itself: a batch of ASCII words in one PyStemmer
        call, none of them cached; any other batch as :meth:`many` stems it (cached)."""
        if self._fast is not None and all(map(str.isascii, words)):  # (no lone surrogate, nothing astral)
            with self._lock:
                return self._fast.stemWords(words)
        return self.many(words)

    def stem(self, word: str) -> str:
        """The jar's stem of ``word`` (uncached)."""
        text = word
        astral = not text.isascii() and max(text) > "\uffff"
        if self._fast is not None and not astral:
            try:
                with self._lock:
                    return self._fast.stemWord(text)
            except UnicodeEncodeError:  # a lone surrogate: the pure-Python code stems it as a character
                pass
        if astral:
            text = _utf16(text)
        with self._lock:
            if self._stemmer is None:
                self._stemmer = _stemmer_class(self._language)()
            text = self._stemmer.stemWord(text)
        if astral:
            text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        return text


LOOKUP_LANGUAGES = ("arabic-buckwalter-reduced",)
"""Languages the jar stems with its ``LookupTableStemmer`` (a word -> stem table, no algorithm)."""


class LookupTableStemmer:
    """The jar's ``LookupTableStemmer``: the stem listed for a word's ``hashCode``, else the word.

    Reads the reduced table of ``scripts/build_arabic_stems.py`` (``word<TAB>stem`` lines). A word
    that merely shares a listed word's hash gets that word's stem, as in the jar.
    """

    def __init__(self, path: Path):
        with gzip.open(path, "rt", encoding="utf-8", newline="\n") as f:
            rows = (line.rstrip("\n").split("\t") for line in f)
            self._table = {java_string_hash(word): stem for word, stem in rows}

    def __call__(self, word: str) -> str:
        return self._table.get(java_string_hash(word), word)


@lru_cache(maxsize=None)
def _cache(language: str) -> Callable[[str], str]:
    if language in LOOKUP_LANGUAGES:
        return LookupTableStemmer(resource_path("stem", language + ".tsv.gz"))
    if language not in LANGUAGES:
        known = ", ".join(LANGUAGES + LOOKUP_LANGUAGES)
        raise ValueError(f"No stemmer for language ({language}); stemmers exist for: {known}")
    return _StemCache(language).__getitem__


def stem_uncached(stem: Callable[[str], str], words: Sequence[str]) -> list[str]:
    """``[stem(w) for w in words]``, for a caller that keeps the stems itself: a stemmer of :func:`get_stemmer`
    stems them in one call where it can, and caches none of a batch of ASCII words (:meth:`_StemCache.uncached`)."""
    cache = getattr(stem, "__self__", None)
    if isinstance(cache, _StemCache):
        return cache.uncached(words)
    return list(map(stem, words))


def get_stemmer(language: str) -> Callable[[str], str]:
    """The jar's stemmer for ``language`` (its long name, e.g. "english"): word -> stem, cached.

    Raises ValueError for a language without a stemmer (such as czech or other).
    """
    return _cache(language)
