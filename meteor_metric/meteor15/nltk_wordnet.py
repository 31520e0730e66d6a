"""``nltk.corpus.wordnet.synsets`` (NLTK 3.10.4, WordNet 3.0) without nltk_data.

The shipped table ``resources/wordnet/nltk_synsets.gz`` (made by ``scripts/build_nltk_wordnet.py``)
holds what NLTK reads from the WordNet 3.0 files: every synset with its type (n, v, a, s, r) and
lemma names (case kept, adjective markers dropped), and the exception lists. The lemma index of a
part of speech is rebuilt on loading: in WordNet 3.0, ``index.<pos>`` lists under a lemma exactly
the synsets of that part of speech (satellites count as adjectives) having the lemma among their
names, lower-cased (the build script checks this). Only the order of a lemma's synsets (by sense
frequency in ``index.<pos>``, by file position here) is not kept.

:meth:`NltkWordNet.synsets` reimplements NLTK's ``synsets`` and its ``morphy``: per part of speech
(noun, verb, adjective, adverb), the word itself and either its exception-list bases or the results
of one suffix substitution, kept if indexed under that part of speech.

Layout of the table (ASCII text, gzip):

    meteor-nltk-wordnet 1
    synsets COUNT            then COUNT lines "TYPE NAME [NAME ...]", in file order n, v, a, r
    exceptions POS COUNT     then COUNT lines "FORM [BASE ...]", for n, v, a, r
"""

from __future__ import annotations

import gzip
import threading
import zlib
from pathlib import Path
from typing import Optional

from ..resources import resource_path

__all__ = ["NltkWordNet", "NltkWordNetError", "POS_ORDER", "SUBSTITUTIONS"]

MAGIC = "meteor-nltk-wordnet"
FORMAT_VERSION = "1"
#: NLTK's ``POS_LIST``: the order ``synsets`` visits the parts of speech.
POS_ORDER = ("n", "v", "a", "r")
#: NLTK's ``MORPHOLOGICAL_SUBSTITUTIONS``: (suffix, replacement), tried in this order.
SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
          ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
_TYPES = frozenset(("n ", "v ", "a ", "s ", "r "))
_CACHE_LIMIT = 1 << 16  # distinct words remembered before the cache starts over


class NltkWordNetError(RuntimeError):
    """The shipped NLTK WordNet table is missing or unreadable."""


class NltkWordNet:
    """WordNet 3.0 as NLTK's ``WordNetCorpusReader`` sees it, for ``synsets`` lookups."""

    __slots__ = ("_synsets", "_index", "_exceptions", "_cache")

    def __init__(self, synsets: list[str], exceptions: dict[str, dict[str, tuple[str, ...]]]):
        """``synsets``: lines ``TYPE NAME ...``; ``exceptions[pos]``: irregular form -> base forms."""
        self._synsets = [tuple(line.split(" ")) for line in synsets]
        self._index = build_index(self._synsets)
        self._exceptions = exceptions
        self._cache: dict[str, frozenset[str]] = {}

    @classmethod
    def load(cls, path: Path) -> "NltkWordNet":
        """Read a table written by ``scripts/build_nltk_wordnet.py``."""
        return cls(*_parse(_read(path), path))

    @classmethod
    def shipped(cls) -> "NltkWordNet":
        """The packaged table, loaded once per process (thread-safe)."""
        global _SHIPPED
        table = _SHIPPED
        if table is None:
            with _LOCK:
                table = _SHIPPED
                if table is None:
                    table = _SHIPPED = cls.load(resource_path("wordnet", "nltk_synsets.gz"))
        return table

    def __len__(self) -> int:
        return len(self._synsets)

    def morphy(self, word: str, pos: str) -> list[str]:
        """NLTK's ``_morphy``: the indexed forms among the word and its bases (or substitutions)."""
        index = self._index[pos]
        bases = self._exceptions[pos].get(word)
        if bases is None:
            bases = tuple(word[: len(word) - len(old)] + new
                          for old, new in SUBSTITUTIONS[pos] if word.endswith(old))
        forms: list[str] = []
        for form in (word, *bases):
            if form in index and form not in forms:
                forms.append(form)
        return forms

    def synset_ids(self, word: str) -> list[int]:
        """The synsets of ``wordnet.synsets(word)`` as table line numbers, repeats kept, in NLTK's
        order of parts of speech and forms (a form's synsets in file order)."""
        word = word.lower()
        return [sid for pos in POS_ORDER for form in self.morphy(word, pos) for sid in self._index[pos][form]]

    def synsets(self, word: str) -> list[tuple[str, ...]]:
        """``wordnet.synsets(word)`` as (type, lemma names...) per synset (see :meth:`synset_ids`)."""
        return [self._synsets[sid] for sid in self.synset_ids(word)]

    def lemmas(self, word: str) -> frozenset[str]:
        """The word's WordNet lemmas: ``wordnet.morphy(word, pos)`` for each part of speech (the first
        indexed form), those that exist; empty for a word WordNet does not know."""
        return frozenset(forms[0] for forms in (self.morphy(word, pos) for pos in POS_ORDER) if forms)

    def synonyms(self, word: str) -> frozenset[str]:
        """What NLTK's METEOR matches a word with: the lemma names without "_" of all its synsets,
        and the word itself."""
        found = self._cache.get(word)
        if found is None:
            names = {name for synset in self.synsets(word) for name in synset[1:] if "_" not in name}
            names.add(word)
            found = frozenset(names)
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[word] = found
        return found


def build_index(synsets: list[tuple[str, ...]]) -> dict[str, dict[str, list[int]]]:
    """Per part of speech: lower-cased lemma name -> ids of the synsets naming it, ascending."""
    index: dict[str, dict[str, list[int]]] = {pos: {} for pos in POS_ORDER}
    for sid, (kind, *names) in enumerate(synsets):
        by_lemma = index["a" if kind == "s" else kind]
        for name in names:
            ids = by_lemma.setdefault(name.lower(), [])
            if not ids or ids[-1] != sid:
                ids.append(sid)
    return index


_SHIPPED: Optional[NltkWordNet] = None
_LOCK = threading.Lock()


def _read(path: Path) -> list[str]:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise NltkWordNetError(f"NLTK WordNet table {path} cannot be read ({exc}); reinstall meteor-metric "
                               "or regenerate it with scripts/build_nltk_wordnet.py") from exc
    try:
        text = gzip.decompress(raw).decode("ascii")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise NltkWordNetError(f"NLTK WordNet table {path} is corrupt: {exc}") from exc
    lines = text.split("\n")
    if lines.pop() != "":
        raise NltkWordNetError(f"NLTK WordNet table {path} is truncated (no final newline)")
    return lines


class _Sections:
    """Walks the ``NAME [POS] COUNT`` section headers of a table."""

    def __init__(self, lines: list[str], path: Path):
        self.lines, self.path, self.at = lines, path, 1

    def take(self, header: str) -> list[str]:
        fields = self.lines[self.at].split(" ") if self.at < len(self.lines) else []
        if fields[:-1] != header.split(" ") or not fields[-1].isdigit():
            raise NltkWordNetError(f"NLTK WordNet table {self.path}: expected section '{header} COUNT' "
                                   f"at line {self.at + 1}")
        start = self.at + 1
        self.at = start + int(fields[-1])
        if self.at > len(self.lines):
            raise NltkWordNetError(f"NLTK WordNet table {self.path}: section '{header}' is truncated")
        return self.lines[start:self.at]


def _parse(lines: list[str], path: Path) -> tuple[list[str], dict[str, dict[str, tuple[str, ...]]]]:
    if not lines or lines[0] != f"{MAGIC} {FORMAT_VERSION}":
        raise NltkWordNetError(f"NLTK WordNet table {path}: unexpected header {lines[0][:80] if lines else ''!r} "
                               f"(want '{MAGIC} {FORMAT_VERSION}')")
    sections = _Sections(lines, path)
    synsets = sections.take("synsets")
    if any(line[:2] not in _TYPES for line in synsets):
        raise NltkWordNetError(f"NLTK WordNet table {path}: a synset line lacks its type")
    exceptions = {}
    for pos in POS_ORDER:
        exceptions[pos] = {form: tuple(bases) for form, *bases in
                           (line.split(" ") for line in sections.take(f"exceptions {pos}"))}
    if sections.at != len(lines):
        raise NltkWordNetError(f"NLTK WordNet table {path}: {len(lines) - sections.at} unexpected trailing lines")
    return synsets, exceptions
