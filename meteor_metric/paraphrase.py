"""METEOR 1.5 paraphrase tables (``ParaphraseTransducer`` / ``ParaphraseMatcher``), compiled to disk.

A table is a gzip'd UTF-8 file of 3-line entries: a probability (ignored, as by the jar), a
"reference" phrase and its paraphrase, each tokenized like Java's ``StringTokenizer`` (delimiters
exactly space, tab, newline, carriage return, form feed). The first :meth:`ParaphraseTable.load` of a
table compiles it once into a binary index in the user's cache directory; later loads ``mmap`` it.

Index layout (native byte order, checked on load): a fixed header
(:data:`_HEADER`: magic, format version, byte-order mark, source size/mtime, counts, flags, the
table's sha256, six ``(offset, length)`` sections, file length, header crc32) followed by the
8-byte-aligned sections. Nodes form a trie over every distinct phrase of either side: node 0 is the
root (the empty phrase), node ``1 + t`` is the one-token phrase of token id ``t``, and deeper nodes
are numbered breadth-first with each node's children contiguous and sorted by token:

* ``vocab``  tokens in id order, UTF-8, joined by ``\\n``;
* ``tok``    u32 per node: its last token (bisected within a child range);
* ``child``  u32 per node + 1: node ``n``'s children are ``child[n]:child[n + 1]``;
* ``levels`` u32 per depth + 1: the first node id of each depth, then the node count;
* ``start``  u32 per node + 1: node ``n``'s paraphrases, as a reference phrase, are
  ``para[start[n]:start[n + 1]]``;
* ``para``   u32 per entry: paraphrase nodes, grouped by reference node, in file order.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import gzip
import hashlib
import importlib.util
import mmap
import os
import re
import struct
import tempfile
import zlib
from array import array
from collections.abc import Iterator, Sequence
from itertools import chain, count, filterfalse
from pathlib import Path
from typing import NamedTuple, Optional, Union

from .gcpause import gc_paused

try:
    import fcntl
except ImportError:  # Windows: no flock; two concurrent builds then both run and os.replace keeps one
    fcntl = None

__all__ = ["ParaphraseTable", "ParaphraseTableNotFound", "ParaphraseIndexError",
           "find_paraphrase_table", "default_cache_dir"]

PathLike = Union[str, "os.PathLike[str]"]
Span = tuple[int, int, int, int]  # (ref_start, ref_len, hyp_start, hyp_len)

PARAPHRASE_DIR_ENV = "METEOR_METRIC_PARAPHRASE_DIR"
CACHE_DIR_ENV = "METEOR_METRIC_CACHE"

_MAGIC = b"MMPARAPH"
_FORMAT_VERSION = 1
_BOM = 0x01020304
_FLAG_EMPTY_PARAPHRASE = 1  # some entry's paraphrase has no tokens
_SECTIONS = ("vocab", "tok", "child", "levels", "start", "para")
# magic, version, bom, src size, src mtime_ns, entries, nodes, vocab, flags, sha256,
# (offset, length) per section, file length; then a crc32 of all of that.
_HEADER = struct.Struct("=8sIIQqQQQQ32s" + "QQ" * len(_SECTIONS) + "Q")
_HEADER_CRC = struct.Struct("=I")
_HEADER_SIZE = _HEADER.size + _HEADER_CRC.size
_CHUNK = 1 << 24
_JAVA_DELIMS = re.compile(rb"[ \t\n\r\f]+")
_LANGUAGE = re.compile(r"[a-z]{2,8}")
_REF_CACHE = 2048  # references whose trie walk is remembered (about 10 kB each)
_HYP_CACHE = 64  # hypotheses whose trie walk is remembered


class ParaphraseTableNotFound(FileNotFoundError):
    """No paraphrase table for the requested language (or the given path does not exist)."""


class ParaphraseIndexError(ValueError):
    """A paraphrase table or compiled index is malformed."""


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
        candidate = Path(env_dir) / name
        if candidate.is_file():
            return candidate
        searched.append(f"{candidate} (from ${PARAPHRASE_DIR_ENV})")
    else:
        searched.append(f"${PARAPHRASE_DIR_ENV} (not set)")
    if language == "en":
        found = _pycocoevalcap_table()
        if isinstance(found, Path):
            return found
        searched.append(found)
    hint = ("pip install pycocoevalcap==1.2 (it ships paraphrase-en.gz), or " if language == "en" else "")
    raise ParaphraseTableNotFound(
        f"no paraphrase table {name!r} for language {language!r}; searched: {'; '.join(searched)}. "
        f"To fix: {hint}pass the table's path (paraphrase_table=..., CLI --paraphrase-table), or set "
        f"${PARAPHRASE_DIR_ENV} to a directory holding {name} (like the METEOR jar's data/ directory), "
        f"or choose modules without 'paraphrase'.")


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
    """``$METEOR_METRIC_CACHE``, else ``$XDG_CACHE_HOME/meteor-metric``, else ``~/.cache/meteor-metric``."""
    explicit = os.environ.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "meteor-metric"


class _Sentence(NamedTuple):
    """A sentence's trie walk: where each phrase node occurs, and its reference-side phrases."""

    occurs: dict[int, list[int]]  # node -> start positions (ascending)
    paths: list[tuple[int, int, int, int]]  # (start, length, entries start, end), in the jar's order


class ParaphraseTable:
    """A compiled paraphrase table: ``matches(hyp, ref)`` gives the jar's paraphrase matches."""

    def __init__(self, source: Path, index_path: Path):
        """Map an index file already validated for ``source``; use :meth:`load` instead."""
        self.source = source
        self.index_path = index_path
        with open(index_path, "rb") as f:
            self._mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        head = _read_header(self._mm)
        if head is None:
            self._mm.close()
            raise ParaphraseIndexError(f"{index_path} is not a valid paraphrase index")
        sections = head["sections"]
        view = memoryview(self._mm)
        words = self._mm[slice(*sections["vocab"])].decode("utf-8").split("\n") if head["vocab"] else []
        self._vocab = dict(zip(words, count()))
        self._words = words
        self._tok, self._child, self._start, self._para = (
            view[slice(*sections[s])].cast("I") for s in ("tok", "child", "start", "para"))
        self._levels = view[slice(*sections["levels"])].cast("I").tolist()
        self._entries = head["entries"]
        self._empty_paraphrase = bool(head["flags"] & _FLAG_EMPTY_PARAPHRASE)
        self.fingerprint = f"{self._entries}:{head['sha256'][:16]}"
        # Remembered walks: a reference is typically scored against many hypotheses (one per
        # system), a hypothesis against its few references.
        self._ref_walk = functools.lru_cache(maxsize=_REF_CACHE)(self._walk)
        self._hyp_walk = functools.lru_cache(maxsize=_HYP_CACHE)(self._walk)

    @classmethod
    def load(cls, source: PathLike, cache_dir: Optional[PathLike] = None) -> "ParaphraseTable":
        """The table ``source`` (a METEOR ``paraphrase-*.gz``), compiled into ``cache_dir`` if needed.

        ``cache_dir`` defaults to :func:`default_cache_dir`. The index file is named after a hash of
        the source's real path, size and mtime; a missing, stale, truncated or corrupt one is
        (re)built under a lock, written to a temporary file and atomically renamed into place."""
        src = Path(source)
        try:
            st = os.stat(src)
        except FileNotFoundError:
            raise ParaphraseTableNotFound(f"paraphrase table {str(src)!r} does not exist") from None
        cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        index_path = _index_location(src, st, cache)
        if not _index_ok(index_path, st):
            cache.mkdir(parents=True, exist_ok=True)
            with _locked(index_path.with_suffix(".lock")):
                if not _index_ok(index_path, st):  # another process may have built it meanwhile
                    _build_index(src, st, index_path)
        return cls(src, index_path)

    def __len__(self) -> int:
        """Number of entries in the table (duplicates included)."""
        return self._entries

    def __reduce__(self):
        """Pickle as the paths: the copy maps (and re-validates) the same index."""
        return _reopen, (self.source, self.index_path)

    def __repr__(self) -> str:
        return f"ParaphraseTable({str(self.source)!r}, entries={self._entries}, fingerprint={self.fingerprint!r})"

    def paraphrases(self, phrase: Sequence[str]) -> list[tuple[str, ...]]:
        """The paraphrases listed for the reference phrase ``phrase`` (tokens), in file order."""
        node = self._node(phrase)
        if node is None:
            return []
        return [self._phrase(q) for q in self._para[self._start[node]:self._start[node + 1]]]

    def matches(self, hyp: Sequence[str], ref: Sequence[str]) -> list[Span]:
        """``(ref_start, ref_len, hyp_start, hyp_len)`` for every paraphrase match, in the jar's order.

        First each reference phrase's paraphrases found in ``hyp`` (by reference start, phrase length,
        table order, hypothesis start), then each hypothesis phrase's paraphrases found in ``ref``
        (by hypothesis start, length, table order, reference start). Duplicates are kept."""
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
        r_occurs = r.occurs
        r_keys = r_occurs.keys()
        for i, length, a, b in h.paths:
            if not r_keys.isdisjoint(para[a:b]):
                for q in para[a:b]:
                    if q in r_occurs:
                        d = bisect.bisect_right(levels, q) - 1
                        out.extend([(j, d, i, length) for j in r_occurs[q]])
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
    if not _index_ok(index_path, os.stat(source)):
        raise ParaphraseIndexError(f"{index_path} is no longer a valid index of {source}")
    return ParaphraseTable(source, index_path)


# -- the index file -------------------------------------------------------------------------------


def _read_header(mm: mmap.mmap) -> Optional[dict]:
    """The header of a well-formed index (checked against its own crc and the file length), or None."""
    if len(mm) < _HEADER_SIZE:
        return None
    raw = mm[:_HEADER.size]
    (crc,) = _HEADER_CRC.unpack_from(mm, _HEADER.size)
    if zlib.crc32(raw) != crc:
        return None
    magic, version, bom, size, mtime, entries, nodes, nvocab, flags, sha, *rest = _HEADER.unpack(raw)
    if magic != _MAGIC or version != _FORMAT_VERSION or bom != _BOM or rest[-1] != len(mm):
        return None
    sections = {}
    for i, name in enumerate(_SECTIONS):
        off, length = rest[2 * i], rest[2 * i + 1]
        if off < _HEADER_SIZE or off + length > len(mm):
            return None
        sections[name] = (off, off + length)
    expected = {"tok": 4 * nodes, "child": 4 * (nodes + 1), "start": 4 * (nodes + 1), "para": 4 * entries}
    if any(sections[s][1] - sections[s][0] != n for s, n in expected.items()) or nodes < nvocab + 1:
        return None
    levels = sections["levels"][1] - sections["levels"][0]
    if levels < 12 or levels % 4:
        return None
    last = {name: struct.unpack_from("=I", mm, sections[name][1] - 4)[0] for name in ("child", "levels", "start")}
    if last != {"child": nodes, "levels": nodes, "start": entries}:
        return None
    return {"size": size, "mtime": mtime, "entries": entries, "vocab": nvocab, "flags": flags,
            "sha256": sha.hex(), "sections": sections}


def _index_location(src: Path, st: os.stat_result, cache: Path) -> Path:
    """Where the index of ``src`` lives in ``cache``: a name made only of a hash (never of user text)."""
    key = f"{os.path.realpath(src)}\0{st.st_size}\0{st.st_mtime_ns}\0{_FORMAT_VERSION}"
    return cache / ("paraphrase-" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".idx")


def _index_ok(path: Path, st: os.stat_result) -> bool:
    """Whether ``path`` is a well-formed index compiled from a source with ``st``'s size and mtime."""
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size < _HEADER_SIZE:
                return False
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                head = _read_header(mm)
    except (OSError, ValueError):
        return False
    return head is not None and head["size"] == st.st_size and head["mtime"] == st.st_mtime_ns


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created if missing)."""
    if fcntl is None:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _build_index(src: Path, st: os.stat_result, dest: Path) -> None:
    """Compile ``src`` and atomically install the result at ``dest``."""
    with gc_paused():
        sections, entries, nodes, nvocab, flags = _compile(src)
    sha = hashlib.sha256()
    with open(src, "rb") as f:
        while block := f.read(_CHUNK):
            sha.update(block)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".tmp-", suffix=".idx")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(bytes(_HEADER_SIZE))
            places = []
            for name in _SECTIONS:
                f.write(bytes(-f.tell() % 8))
                off = f.tell()
                f.write(sections[name])
                places += [off, f.tell() - off]
            total = f.tell()
            head = _HEADER.pack(_MAGIC, _FORMAT_VERSION, _BOM, st.st_size, st.st_mtime_ns, entries, nodes,
                                nvocab, flags, sha.digest(), *places, total)
            f.seek(0)
            f.write(head + _HEADER_CRC.pack(zlib.crc32(head)))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(dest.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _table_lines(f) -> Iterator[list[bytes]]:
    r"""Lists of complete lines of a binary stream, split like Java's ``readLine`` (\n, \r, \r\n)
    and with malformed UTF-8 replaced by U+FFFD as Java's decoder does."""
    carry = b""
    while True:
        chunk = f.read(_CHUNK)
        data = carry + chunk
        hold = 1 if chunk and data.endswith(b"\r") else 0  # may be the first half of \r\n
        body = data[:len(data) - hold]
        if b"\r" in body:
            body = body.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lines = body.split(b"\n")
        if chunk:
            carry = lines.pop() + data[len(data) - hold:]
        elif lines[-1] == b"":
            lines.pop()
        if not body.isascii():
            try:
                b"\n".join(lines).decode("utf-8")
            except UnicodeDecodeError:
                lines = [line.decode("utf-8", "replace").encode("utf-8") for line in lines]
        yield lines
        if not chunk:
            return


def _tokens(phrase: bytes) -> list[bytes]:
    r"""Java ``StringTokenizer`` tokens (``bytes.split()`` also splits on \x0b, which Java keeps)."""
    return [t for t in _JAVA_DELIMS.split(phrase) if t]


def _compile(src: Path) -> tuple[dict, int, int, int, int]:
    """Parse the gzip table and lay out the index sections (see the module docstring)."""
    import numpy as np  # build time only

    # 1. Entries as pairs of distinct-line ids.
    line_ids: dict[bytes, int] = {}
    ref_ids, par_ids = array("I"), array("I")
    pending: list[bytes] = []
    with gzip.open(src, "rb") as f:
        for lines in _table_lines(f):
            lines = pending + lines if pending else lines
            k = len(lines) - len(lines) % 3
            refs, pars = lines[1:k:3], lines[2:k:3]
            pending = lines[k:]
            phrases = lines[1:k]
            del phrases[2::3]  # the probability lines
            # Ids in file order keep later passes walking memory in order.
            new = filterfalse(line_ids.__contains__, dict.fromkeys(phrases))
            line_ids.update(zip(new, count(len(line_ids))))
            ref_ids.extend(map(line_ids.__getitem__, refs))
            par_ids.extend(map(line_ids.__getitem__, pars))
    if pending:
        raise ParaphraseIndexError(f"{src}: {len(pending)} trailing line(s) after the last 3-line entry")
    entries = len(ref_ids)
    if entries >= 1 << 32:
        raise ParaphraseIndexError(f"{src}: too many entries ({entries})")

    # 2. Tokens of each distinct line, as ids (flat), with the number of tokens per line.
    vocab: dict[bytes, int] = {}
    flat, lengths = array("I"), array("B")
    distinct = list(line_ids)
    del line_ids
    for b in range(0, len(distinct), 1 << 16):
        batch = distinct[b:b + (1 << 16)]
        toks = list(map(_tokens if b"\x0b" in b"".join(batch) else bytes.split, batch))
        if max(map(len, toks)) > 255:
            raise ParaphraseIndexError(f"{src}: a phrase has more than 255 tokens")
        lengths.extend(map(len, toks))
        words = list(chain.from_iterable(toks))
        vocab.update(zip(set(words).difference(vocab), count(len(vocab))))
        flat.extend(map(vocab.__getitem__, words))
    del distinct
    nvocab = len(vocab)
    vocab_blob = b"\n".join(sorted(vocab, key=vocab.__getitem__))
    del vocab

    # 3. The trie, breadth first: depth-1 nodes are 1 + token id; deeper ones come in sorted order.
    n_phr = len(lengths)
    lens = np.frombuffer(lengths, dtype=np.uint8).astype(np.intp)
    maxdepth = int(lens.max(initial=0))
    mat = np.zeros((n_phr, max(maxdepth, 1)), dtype=np.uint32)  # token id + 1, 0-padded
    rows = np.repeat(np.arange(n_phr), lens)
    firsts = np.cumsum(lens) - lens
    mat[rows, np.arange(len(flat)) - np.repeat(firsts, lens)] = np.frombuffer(flat, dtype=np.uint32) + 1
    del rows, firsts, flat
    order = np.lexsort(mat.T[::-1])
    mat, lens = mat[order], lens[order]
    differs = mat[1:] != mat[:-1]
    shared = np.zeros(n_phr, dtype=np.intp)  # leading tokens shared with the previous phrase
    shared[1:] = np.where(differs.any(axis=1), differs.argmax(axis=1), mat.shape[1])
    del differs
    offset = [0, 1, 1 + nvocab]  # first node id of each depth, then one past the last node
    at_depth = [np.zeros(n_phr, dtype=np.intp), mat[:, 0].astype(np.intp) - 1]  # per phrase, node index
    toks_d, parents_d = [None, None], [None, None]
    for d in range(2, maxdepth + 1):
        new = (lens >= d) & (shared < d)
        at_depth.append(np.cumsum(new) - 1)
        toks_d.append(mat[new, d - 1] - 1)
        parents_d.append(at_depth[d - 1][new])
        offset.append(offset[-1] + int(new.sum()))
    nodes = offset[-1]
    if nodes >= 1 << 32:
        raise ParaphraseIndexError(f"{src}: too many phrases")
    terminal = np.zeros(n_phr, dtype=np.uint32)
    for d in range(1, maxdepth + 1):
        here = lens == d
        terminal[here] = offset[d] + at_depth[d][here]
    node_of = np.empty(n_phr, dtype=np.uint32)
    node_of[order] = terminal
    del mat, lens, shared, at_depth, terminal, order

    tok = np.zeros(nodes, dtype=np.uint32)
    child = np.empty(nodes + 1, dtype=np.uint32)
    child[0] = 1  # the root's children are all depth-1 nodes
    child[nodes] = nodes
    for d in range(1, maxdepth + 1):
        lo, hi = offset[d], offset[d + 1]
        tok[lo:hi] = np.arange(nvocab) if d == 1 else toks_d[d]
        below = parents_d[d + 1] if d < maxdepth else np.zeros(0, dtype=np.intp)
        child[lo:hi] = offset[d + 1] + np.searchsorted(below, np.arange(hi - lo))

    # 4. Entries grouped by reference node, file order kept.
    ref_nodes = node_of[np.frombuffer(ref_ids, dtype=np.uint32)]
    by_ref = np.argsort(ref_nodes, kind="stable")
    para = node_of[np.frombuffer(par_ids, dtype=np.uint32)][by_ref]
    start = np.zeros(nodes + 1, dtype=np.uint32)
    start[1:] = np.cumsum(np.bincount(ref_nodes, minlength=nodes))
    flags = _FLAG_EMPTY_PARAPHRASE if bool((para == 0).any()) else 0
    sections = {"vocab": vocab_blob, "tok": tok.tobytes(), "child": child.tobytes(),
                "levels": array("I", offset).tobytes(), "start": start.tobytes(), "para": para.tobytes()}
    return sections, entries, nodes, nvocab, flags
