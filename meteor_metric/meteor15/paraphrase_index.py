"""The compiled paraphrase index file: its layout, its integrity checks and how it is written.

Layout (native byte order, checked on load): a fixed header (:data:`HEADER`: magic, format version,
byte-order mark, the source table's size, mtime and sha256, counts, flags, six ``(offset, length)``
sections with a crc32 each, the file length, and a crc32 of the header itself) followed by the
8-byte-aligned sections. Nodes form a trie over every distinct phrase of either side: node 0 is the
root (the empty phrase), node ``1 + t`` is the one-token phrase of token id ``t``, and deeper nodes
are numbered breadth-first with each node's children contiguous and sorted by token:

* ``vocab``  tokens in id order, UTF-8, joined by ``\\n``;
* ``tok``    u32 per node: its last token (bisected within a child range);
* ``child``  u32 per node + 1: node ``n``'s children are ``child[n]:child[n + 1]``;
* ``levels`` u32 per depth + 1: the first node id of each depth, then the node count;
* ``start``  u32 per node + 1: node ``n``'s paraphrases, as a reference phrase, are
  ``para[start[n]:start[n + 1]]``;
* ``para``   u32 per entry: paraphrase nodes, grouped by reference node, in file order;
* ``source`` where the table came from, UTF-8 (informational: ``meteor-metric cache info`` shows it).

The header check is structural (sizes, offsets, last values); :func:`damaged_sections` checks every
byte of the body against the crc32s written at build time (about 20 ms for the English table).
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import struct
import tempfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NamedTuple, Optional

try:
    import fcntl
except ImportError:  # Windows: no flock; two concurrent builds then both run and os.replace keeps one
    fcntl = None

__all__ = ["ParaphraseIndexError", "HEADER_SIZE", "SECTIONS", "FLAG_EMPTY_PARAPHRASE", "FORMAT_VERSION", "IndexHeader", "read_header", "mapped_index",
           "damaged_sections", "write_index", "index_location", "locked", "file_sha256"]

MAGIC = b"MMPARAPH"
FORMAT_VERSION = 2
_BOM = 0x01020304
FLAG_EMPTY_PARAPHRASE = 1  # some entry's paraphrase has no tokens
SECTIONS = ("vocab", "tok", "child", "levels", "start", "para", "source")
# magic, version, bom, src size, src mtime_ns, entries, nodes, vocab, flags, sha256,
# (offset, length, crc32) per section, file length; then a crc32 of all of that.
HEADER = struct.Struct("=8sIIQqQQQQ32s" + "QQI" * len(SECTIONS) + "Q")
_HEADER_CRC = struct.Struct("=I")
HEADER_SIZE = HEADER.size + _HEADER_CRC.size


class ParaphraseIndexError(ValueError):
    """A paraphrase table or compiled index is malformed."""


class IndexHeader(NamedTuple):
    """What an index file says about itself."""

    size: int  # of the source table, in bytes
    mtime_ns: int  # of the source table when it was compiled
    entries: int
    nodes: int
    vocab: int
    flags: int
    sha256: str  # of the source table, hex
    sections: dict[str, tuple[int, int]]  # name -> (start, end) byte offsets
    crcs: dict[str, int]  # name -> crc32 of the section's bytes


def read_header(buf) -> Optional[IndexHeader]:
    """The header of a well-formed index in ``buf`` (bytes-like: an mmap, bytes), or None.

    Checks the header's own crc32, magic, version, byte order, the file length, section bounds and
    sizes, and the last value of ``child``, ``levels`` and ``start``; not the body's crc32s."""
    if len(buf) < HEADER_SIZE:
        return None
    raw = bytes(buf[:HEADER.size])
    (crc,) = _HEADER_CRC.unpack_from(buf, HEADER.size)
    if zlib.crc32(raw) != crc:
        return None
    magic, version, bom, size, mtime, entries, nodes, nvocab, flags, sha, *rest = HEADER.unpack(raw)
    if magic != MAGIC or version != FORMAT_VERSION or bom != _BOM or rest[-1] != len(buf):
        return None
    sections, crcs = {}, {}
    for i, name in enumerate(SECTIONS):
        off, length, section_crc = rest[3 * i:3 * i + 3]
        if off < HEADER_SIZE or off + length > len(buf):
            return None
        sections[name] = (off, off + length)
        crcs[name] = section_crc
    expected = {"tok": 4 * nodes, "child": 4 * (nodes + 1), "start": 4 * (nodes + 1), "para": 4 * entries}
    if any(sections[s][1] - sections[s][0] != n for s, n in expected.items()) or nodes < nvocab + 1:
        return None
    levels = sections["levels"][1] - sections["levels"][0]
    if levels < 12 or levels % 4:
        return None
    last = {name: struct.unpack_from("=I", buf, sections[name][1] - 4)[0] for name in ("child", "levels", "start")}
    if last != {"child": nodes, "levels": nodes, "start": entries}:
        return None
    return IndexHeader(size, mtime, entries, nodes, nvocab, flags, sha.hex(), sections, crcs)


def damaged_sections(buf, header: IndexHeader) -> list[str]:
    """The sections of ``buf`` whose bytes do not match the crc32 written at build time."""
    view = memoryview(buf)
    try:
        return [name for name, (lo, hi) in header.sections.items() if zlib.crc32(view[lo:hi]) != header.crcs[name]]
    finally:
        view.release()


def write_index(dest: Path, sections: Mapping[str, bytes], *, source_size: int, source_mtime_ns: int,
                source_sha256: bytes, entries: int, nodes: int, vocab: int, flags: int) -> None:
    """Write an index to a temporary file beside ``dest``, fsync it, and atomically rename it into place."""
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".tmp-", suffix=".idx")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(bytes(HEADER_SIZE))
            places = []
            for name in SECTIONS:
                f.write(bytes(-f.tell() % 8))
                off = f.tell()
                f.write(sections[name])
                places += [off, f.tell() - off, zlib.crc32(sections[name])]
            total = f.tell()
            head = HEADER.pack(MAGIC, FORMAT_VERSION, _BOM, source_size, source_mtime_ns, entries, nodes,
                               vocab, flags, source_sha256, *places, total)
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


def index_location(src: Path, st: os.stat_result, cache: Path) -> Path:
    """Where the index of ``src`` lives in ``cache``: a name made only of a hash (never of user text)."""
    key = f"{os.path.realpath(src)}\0{st.st_size}\0{st.st_mtime_ns}\0{FORMAT_VERSION}"
    return cache / ("paraphrase-" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32] + ".idx")


def file_sha256(path: Path) -> bytes:
    """The sha256 digest of a file's bytes (hashed from a memory map: no copy)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return hashlib.sha256().digest()
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            return hashlib.sha256(mm).digest()


@contextlib.contextmanager
def mapped_index(path: Path) -> Iterator[Optional[mmap.mmap]]:
    """The file at ``path`` mapped read only, or None when it is shorter than an index header
    (raises ``FileNotFoundError``)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size < HEADER_SIZE:
            yield None
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            yield mm


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
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
