"""METEOR 1.5 paraphrase tables (``ParaphraseTransducer`` / ``ParaphraseMatcher``), compiled to disk.

A table is a gzip'd UTF-8 file of 3-line entries: a probability (ignored, as by the jar), a
"reference" phrase and its paraphrase, each tokenized like Java's ``StringTokenizer`` (delimiters
exactly space, tab, newline, carriage return, form feed). :meth:`ParaphraseTable.load` memory-maps
a compiled index of the table (:mod:`meteor_metric.meteor15.paraphrase_index`): the one shipped in the
package when the table is METEOR 1.5's ``paraphrase-en.gz`` (same sha256), else one compiled
once into the user's cache directory (:mod:`meteor_metric.meteor15.paraphrase_build`).
:func:`load_paraphrase_table` is what a scorer uses: with no table given, English maps the shipped index
itself (no table, no pycocoevalcap needed). Every byte of an index is checked against its crc32s when it
is opened; a damaged one is reported on the ``meteor_metric`` logger and rebuilt.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import importlib.util
import logging
import mmap
import os
import re
import sys
import time
from array import array
from collections.abc import Sequence
from itertools import count
from pathlib import Path
from typing import NamedTuple, Optional, Union

from .paraphrase_index import (FLAG_EMPTY_PARAPHRASE, IndexHeader, ParaphraseIndexError, damaged_sections, file_sha256,
                               index_location, locked, mapped_index, open_regular, read_header, read_note, write_index,
                               write_note)
from ..resources import resource_path

__all__ = ["ParaphraseTable", "ParaphraseTableNotFound", "ParaphraseIndexError",
           "find_paraphrase_table", "load_paraphrase_table", "default_cache_dir", "shipped_indexes"]

PathLike = Union[str, "os.PathLike[str]"]
Span = tuple[int, int, int, int]  # (ref_start, ref_len, hyp_start, hyp_len)

PARAPHRASE_DIR_ENV = "METEOR_METRIC_PARAPHRASE_DIR"
CACHE_DIR_ENV = "METEOR_METRIC_CACHE"

_LANGUAGE = re.compile(r"[a-z]{2,8}")
_REF_CACHE = 2048  # references whose trie walk is remembered (about 10 kB each)
_HYP_CACHE = 64  # hypotheses whose trie walk is remembered
#: Compile time per MB of gzip'd table, measured on the English table (for the announcement only).
_BUILD_SECONDS_PER_MB = 0.25

log = logging.getLogger("meteor_metric")


class ParaphraseTableNotFound(FileNotFoundError):
    """No paraphrase table for the requested language (or the given path does not exist)."""


def find_paraphrase_table(language: str = "en", path: Optional[PathLike] = None) -> Path:
    """The paraphrase table to use for ``language`` (the jar's short name: en, cz, fr, es, de, ...).

    Tried in order: ``path`` (must exist); ``$METEOR_METRIC_PARAPHRASE_DIR/paraphrase-<language>.gz``;
    for ``en``, the table shipped in an installed ``pycocoevalcap`` (located, not imported).
    Raises :class:`ParaphraseTableNotFound` when none exists."""
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise ParaphraseTableNotFound(f"paraphrase table {str(p)!r} does not exist or is not a file")
        return p
    if not isinstance(language, str) or not _LANGUAGE.fullmatch(language):
        raise ValueError(f"bad language code {language!r}: expected the jar's short name, e.g. 'en'")
    name = f"paraphrase-{language}.gz"
    searched = []
    env_dir = os.environ.get(PARAPHRASE_DIR_ENV)
    if env_dir:
        candidate = _env_table(language)
        if candidate is not None:
            return candidate
        searched.append(f"{Path(env_dir) / name} (from ${PARAPHRASE_DIR_ENV})")
    else:
        searched.append(f"${PARAPHRASE_DIR_ENV} (not set)")
    if language == "en":
        found = _pycocoevalcap_table()
        if isinstance(found, Path):
            return found
        searched.append(found)
    hint = ("reinstall meteor-metric (it ships English's index), pip install pycocoevalcap==1.2 (it ships "
            "paraphrase-en.gz), or " if language == "en" else "")
    raise ParaphraseTableNotFound(
        f"no paraphrase table {name!r} for language {language!r}; searched: {'; '.join(searched)}. "
        f"To fix: {hint}pass the table's path (paraphrase_table=..., CLI --paraphrase-table), or set "
        f"${PARAPHRASE_DIR_ENV} to a directory holding {name} (like the METEOR jar's data/ directory), "
        f"or choose modules without 'paraphrase'.")


def load_paraphrase_table(language: str = "en", path: Optional[PathLike] = None,
                          cache_dir: Optional[PathLike] = None) -> ParaphraseTable:
    """The paraphrase table a scorer of ``language`` uses, mapped (compiled first if needed).

    ``path``, else ``$METEOR_METRIC_PARAPHRASE_DIR/paraphrase-<language>.gz``, is loaded with
    :meth:`ParaphraseTable.load`. Without either, a shipped index of ``language`` (English's) is mapped
    as it is; if it is damaged, that is reported and the table :func:`find_paraphrase_table` finds is
    compiled instead. Raises :class:`ParaphraseTableNotFound` (or :class:`ParaphraseIndexError` for a
    damaged shipped index with no table to rebuild it from)."""
    damaged = None
    if path is None and _env_table(language) is None:
        shipped = next((p for p in shipped_indexes() if p.name == f"paraphrase-{language}.idx"), None)
        if shipped is not None:
            try:
                return ParaphraseTable(shipped, shipped)
            except (OSError, ParaphraseIndexError) as exc:
                damaged = exc
                log.warning("meteor-metric: the shipped index %s; looking for the table to rebuild it from", exc)
    try:
        source = find_paraphrase_table(language, path)
    except ParaphraseTableNotFound as exc:
        if damaged is None:
            raise
        raise ParaphraseIndexError(f"the shipped index {damaged}; reinstall meteor-metric, or {exc}") from None
    return ParaphraseTable.load(source, cache_dir)


def _env_table(language: str) -> Optional[Path]:
    """``$METEOR_METRIC_PARAPHRASE_DIR/paraphrase-<language>.gz`` if that variable is set and the file exists."""
    env_dir = os.environ.get(PARAPHRASE_DIR_ENV)
    candidate = Path(env_dir) / f"paraphrase-{language}.gz" if env_dir else None
    return candidate if candidate is not None and candidate.is_file() else None


def _pycocoevalcap_table() -> Union[Path, str]:
    """pycocoevalcap's ``meteor/data/paraphrase-en.gz``, or a note of what was searched."""
    try:
        spec = importlib.util.find_spec("pycocoevalcap")  # finds the package without running it
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return "pycocoevalcap (not installed)"
    candidates = [Path(loc) / "meteor" / "data" / "paraphrase-en.gz" for loc in spec.submodule_search_locations]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return ", ".join(map(str, candidates)) + " (pycocoevalcap installed, table missing)"


def default_cache_dir() -> Path:
    """``$METEOR_METRIC_CACHE``, else ``$XDG_CACHE_HOME/meteor-metric``, else ``~/.cache/meteor-metric``
    (a leading ``~`` is expanded, as a shell would: the variable is often set in quotes)."""
    explicit = os.environ.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "meteor-metric"


class _Sentence(NamedTuple):
    """A sentence's trie walk: where each phrase node occurs, and its reference-side phrases."""

    occurs: dict[int, list[int]]  # node -> start positions (ascending)
    paths: list[tuple[int, int, int, int]]  # (start, length, entries start, end), in the jar's order


class ParaphraseTable:
    """A compiled paraphrase table: ``matches(hyp, ref)`` gives the jar's paraphrase matches."""

    def __init__(self, source: Path, index_path: Path):
        """Map an index file of ``source`` (the index itself for a shipped one used without its table) and
        check every byte of it; use :func:`load_paraphrase_table` or :meth:`load` instead.

        Raises :class:`ParaphraseIndexError` if the file is not a well-formed, undamaged index."""
        self.source = source
        self.index_path = index_path
        with open(open_regular(index_path), "rb") as f:
            if os.fstat(f.fileno()).st_size == 0:
                raise ParaphraseIndexError(f"{index_path} is empty")
            self._mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        head = read_header(self._mm)
        problem = "is not a valid paraphrase index" if head is None else None
        if head is not None and (damaged := damaged_sections(self._mm, head)):
            problem = f"is damaged (checksum mismatch in section(s) {', '.join(damaged)})"
        if problem:
            self._mm.close()
            raise ParaphraseIndexError(f"{index_path} {problem}")
        self.header = head
        sections = head.sections
        view = memoryview(self._mm)
        words = self._mm[slice(*sections["vocab"])].decode("utf-8").split("\n") if head.vocab else []
        self._vocab = dict(zip(words, count()))
        self._words = words
        self._tok, self._child, self._start, self._para = (
            view[slice(*sections[s])].cast("I") for s in ("tok", "child", "start", "para"))
        self._levels = view[slice(*sections["levels"])].cast("I").tolist()
        self._entries = head.entries
        self._empty_paraphrase = bool(head.flags & FLAG_EMPTY_PARAPHRASE)
        self.fingerprint = f"{self._entries}:{head.sha256[:16]}"
        # Remembered walks: a reference is typically scored against many hypotheses (one per
        # system), a hypothesis against its few references.
        self._ref_walk = functools.lru_cache(maxsize=_REF_CACHE)(self._walk)
        self._hyp_walk = functools.lru_cache(maxsize=_HYP_CACHE)(self._walk)

    @classmethod
    def load(cls, source: PathLike, cache_dir: Optional[PathLike] = None) -> "ParaphraseTable":
        """The table ``source`` (a METEOR ``paraphrase-*.gz``), compiled if needed.

        A shipped index of the same table (by sha256) is used as it is. Otherwise the index lives in
        ``cache_dir`` (default :func:`default_cache_dir`) under a name made of a hash of the source's
        real path, size and mtime; a missing, stale or damaged one is (re)built under a lock (other
        processes wait and then map the same file), written to a temporary file and atomically
        renamed into place. Damage is reported once on the ``meteor_metric`` logger."""
        src = Path(source)
        try:
            st = os.stat(src)
        except FileNotFoundError:
            raise ParaphraseTableNotFound(f"paraphrase table {str(src)!r} does not exist") from None
        cache = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
        index_path = index_location(src, st, cache)
        shipped = _shipped_index_of(src, st, cache)
        if shipped is not None:
            # an index in the cache exists only if the shipped one was found damaged (and reported) once
            table = _open_if_valid(src, index_path, st, report=False)
            if table is None:
                table = _open_if_valid(src, shipped, st, report=True, shipped=True)
            if table is not None:
                return table
        table = _open_if_valid(src, index_path, st, report=True)
        if table is None:
            cache.mkdir(parents=True, exist_ok=True)
            with locked(index_path.with_suffix(".lock")):
                # another process may have built it while this one waited for the lock
                table = _open_if_valid(src, index_path, st, report=False)
                if table is None:
                    build_index(src, index_path)
                    table = cls(src, index_path)
        return table

    def __len__(self) -> int:
        """Number of entries in the table (duplicates included)."""
        return self._entries

    def __reduce__(self):
        """Pickle as the paths: the copy maps (and re-validates) the same index."""
        return _reopen, (self.source, self.index_path)

    def __repr__(self) -> str:
        return f"ParaphraseTable({str(self.source)!r}, entries={self._entries}, fingerprint={self.fingerprint!r})"

    @property
    def empty_paraphrase(self) -> bool:
        """Whether the table lists an empty paraphrase (then every position matches the empty phrase)."""
        return self._empty_paraphrase

    @property
    def vocabulary(self) -> dict[str, int]:
        """The index's vocabulary, word -> id (the compiled core reads it; not to be changed)."""
        return self._vocab

    def index_arrays(self) -> tuple:
        """The trie as uint32 buffers (tok, child, start, para, levels), for the compiled core's own walk."""
        return self._tok, self._child, self._start, self._para, array("I", self._levels)

    def paraphrases(self, phrase: Sequence[str]) -> list[tuple[str, ...]]:
        """The paraphrases listed for the reference phrase ``phrase`` (tokens), in file order."""
        node = self._node(phrase)
        if node is None:
            return []
        return [self._phrase(q) for q in self._para[self._start[node]:self._start[node + 1]]]

    def matches(self, hyp: Sequence[str], ref: Sequence[str], limit: Optional[int] = None) -> list[Span]:
        """``(ref_start, ref_len, hyp_start, hyp_len)`` for every paraphrase match, in the jar's order.

        First each reference phrase's paraphrases found in ``hyp`` (by reference start, phrase length,
        table order, hypothesis start), then each hypothesis phrase's paraphrases found in ``ref``
        (by hypothesis start, length, table order, reference start). Duplicates are kept. Stops after
        the first phrase that takes the list past ``limit``."""
        h = self._hyp_walk(hyp if type(hyp) is tuple else tuple(hyp))
        r = self._ref_walk(ref if type(ref) is tuple else tuple(ref))
        out: list[Span] = []
        para, levels = self._para, self._levels
        h_occurs = h.occurs
        h_keys = h_occurs.keys()
        for j, length, a, b in r.paths:
            if not h_keys.isdisjoint(para[a:b]):
                for q in para[a:b]:
                    if q in h_occurs:
                        d = bisect.bisect_right(levels, q) - 1
                        out.extend([(j, length, i, d) for i in h_occurs[q]])
                if limit is not None and len(out) > limit:
                    return out
        r_occurs = r.occurs
        r_keys = r_occurs.keys()
        for i, length, a, b in h.paths:
            if not r_keys.isdisjoint(para[a:b]):
                for q in para[a:b]:
                    if q in r_occurs:
                        d = bisect.bisect_right(levels, q) - 1
                        out.extend([(j, d, i, length) for j in r_occurs[q]])
                if limit is not None and len(out) > limit:
                    return out
        return out

    def _walk(self, words: tuple[str, ...]) -> _Sentence:
        """Walk the trie from every position of ``words`` (the jar's ``getPaths`` for each start)."""
        vocab_get = self._vocab.get
        ids = [vocab_get(w, -1) for w in words]
        n = len(ids)
        ids.append(-1)  # sentinel: no step past the end
        tok, child, start = self._tok, self._child, self._start
        occurs: dict[int, list[int]] = {0: list(range(n))} if self._empty_paraphrase and n else {}
        paths = []
        for s in range(n):
            t = ids[s]
            if t < 0:
                continue
            node = t + 1
            end = s + 1
            while True:
                positions = occurs.get(node)
                if positions is None:
                    occurs[node] = [s]
                else:
                    positions.append(s)
                a = start[node]
                b = start[node + 1]
                if a != b:
                    paths.append((s, end - s, a, b))
                t = ids[end]
                if t < 0:
                    break
                lo = child[node]
                hi = child[node + 1]
                if lo == hi:
                    break
                node = bisect.bisect_left(tok, t, lo, hi)
                if node == hi or tok[node] != t:
                    break
                end += 1
        return _Sentence(occurs, paths)

    def _step(self, node: int, t: int) -> int:
        """The child of ``node`` by token id ``t``, or 0."""
        lo, hi = self._child[node], self._child[node + 1]
        k = bisect.bisect_left(self._tok, t, lo, hi)
        return k if k < hi and self._tok[k] == t else 0

    def _node(self, phrase: Sequence[str]) -> Optional[int]:
        """The trie node of a non-empty phrase, if it is in the table."""
        node = 0
        for w in phrase:
            t = self._vocab.get(w, -1)
            node = self._step(node, t) if t >= 0 else 0
            if not node:
                return None
        return node or None

    def _phrase(self, node: int) -> tuple[str, ...]:
        """The tokens of a trie node (its parent is the node whose child range holds it)."""
        out = []
        while node:
            out.append(self._words[self._tok[node]])
            node = bisect.bisect_right(self._child, node) - 1
        return tuple(reversed(out))


def _reopen(source: Path, index_path: Path) -> ParaphraseTable:
    """Unpickle a :class:`ParaphraseTable`."""
    if source == index_path:
        return ParaphraseTable(source, index_path)
    table = _open_if_valid(source, index_path, os.stat(source), report=False)
    if table is None:
        raise ParaphraseIndexError(f"{index_path} is no longer a valid index of {source}")
    return table


# -- finding and building indexes -----------------------------------------------------------------


def shipped_indexes() -> list[Path]:
    """The index files shipped in the package (``resources/paraphrase/*.idx``)."""
    return sorted(resource_path("paraphrase").glob("*.idx"))


def _shipped_index_of(src: Path, st: os.stat_result, cache: Path) -> Optional[Path]:
    """The shipped index compiled from a table with ``src``'s size and sha256, if there is one.

    The sha256 is computed once per table file (real path, size, mtime): a small note in ``cache``
    remembers which shipped index it matched."""
    candidates = [(path, head) for path in shipped_indexes()
                  if (head := _peek_header(path, quiet=True)) is not None and head.size == st.st_size]
    if not candidates:
        return None
    note = index_location(src, st, cache).with_suffix(".shipped")
    recorded = read_note(note)
    for path, head in candidates:
        if (path.name, head.sha256) == recorded:
            return path
    digest = file_sha256(src).hex()
    for path, head in candidates:
        if head.sha256 == digest:
            with contextlib.suppress(OSError):
                cache.mkdir(parents=True, exist_ok=True)
                write_note(note, path.name, digest)
            return path
    return None


def _peek_header(path: Path, quiet: bool = False) -> Optional[IndexHeader]:
    """The header of the index file at ``path`` (its body unchecked), or None; raises FileNotFoundError
    and, unless ``quiet``, :class:`ParaphraseIndexError` for a file that is not a regular one."""
    try:
        with mapped_index(path) as mm:
            return None if mm is None else read_header(mm)
    except (OSError, ParaphraseIndexError):
        if quiet:
            return None
        raise


def _open_if_valid(src: Path, index_path: Path, st: os.stat_result, report: bool,
                   shipped: bool = False) -> Optional[ParaphraseTable]:
    """The table mapped from ``index_path`` if that file is a sound index of ``src``, else None.

    A cache index must record ``src``'s size and mtime; a ``shipped`` one, its size (its sha256 was
    checked by :func:`_shipped_index_of`). A file that exists but is unsound is logged (``report``)."""
    try:
        head = _peek_header(index_path)
    except FileNotFoundError:
        return None
    except (OSError, ParaphraseIndexError) as exc:
        head = exc
    try:
        if isinstance(head, Exception):
            raise head
        if head is None:
            raise ParaphraseIndexError(f"{index_path} is not a valid paraphrase index")
        if head.size != st.st_size or (head.mtime_ns != st.st_mtime_ns and not shipped):
            return None  # compiled from another version of the table: a new one gets its own file
        return ParaphraseTable(src, index_path)
    except (OSError, ParaphraseIndexError) as exc:
        if report:
            log.warning("meteor-metric: %s; rebuilding it", exc)
        return None


def build_index(src: Path, dest: Path, *, mtime_ns: Optional[int] = None, label: Optional[str] = None) -> None:
    """Compile the table ``src`` into an index file at ``dest`` (atomically replaced).

    The index records the table's size, sha256 and mtime (``mtime_ns``, default the file's; the
    shipped index records 0) and ``label`` as its source (default: the table's real path). A build
    expected to take over a second is announced on the ``meteor_metric`` logger, with a progress
    bar on stderr when that is a terminal."""
    from .paraphrase_build import compile_table  # numpy, only when compiling

    st = os.stat(src)
    expected = st.st_size / 1e6 * _BUILD_SECONDS_PER_MB
    bar = None
    if expected > 1:
        log.warning("meteor-metric: compiling the paraphrase table %s into %s (once per table; about %.0f s)",
                    src, dest, expected)
        if sys.stderr is not None and sys.stderr.isatty():
            from tqdm import tqdm

            bar = tqdm(total=st.st_size, unit="B", unit_scale=True, desc="paraphrase index", leave=False)
    began = time.perf_counter()
    try:
        compiled = compile_table(src, None if bar is None else lambda done: bar.update(done - bar.n))
    finally:
        if bar is not None:
            bar.close()
    sections = dict(compiled.sections, source=(label or os.path.realpath(src)).encode("utf-8", "surrogateescape"))
    write_index(dest, sections, source_size=st.st_size,
                source_mtime_ns=st.st_mtime_ns if mtime_ns is None else mtime_ns,
                source_sha256=file_sha256(src), entries=compiled.entries, nodes=compiled.nodes,
                vocab=compiled.vocab, flags=compiled.flags)
    if expected > 1:
        log.warning("meteor-metric: paraphrase index ready in %.1f s", time.perf_counter() - began)
