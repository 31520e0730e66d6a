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
import errno
import hashlib
import mmap
import os
import re
import secrets
import stat
import struct
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NamedTuple, Optional

try:
    import fcntl
except ImportError:  # Windows: no flock; two concurrent builds then both run and os.replace keeps one
    fcntl = None

__all__ = ["ParaphraseIndexError", "HEADER_SIZE", "SECTIONS", "FLAG_EMPTY_PARAPHRASE", "FORMAT_VERSION", "MAGIC",
           "IndexHeader", "read_header", "mapped_index", "open_regular", "damaged_sections", "write_index",
           "index_location", "locked", "file_sha256", "generated_name", "write_note", "read_note"]

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
    """Write an index to a temporary file beside ``dest`` (``<dest name>.<random>.tmp``, mode
    ``0o666 & ~umask`` like any new file, so a cache built by one user is readable by others), fsync it,
    and atomically rename it into place. The magic is written first: even an interrupted temporary file
    is recognisably the package's (``meteor-metric cache clear`` deletes only such files)."""
    if dest.is_dir() and not dest.is_symlink():
        raise ParaphraseIndexError(f"{dest} is a directory, where the index belongs; remove it "
                                   "(the cache directory holds only files this package writes)")
    fd, tmp = _new_temp_file(dest)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + bytes(HEADER_SIZE - len(MAGIC)))
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


def _new_temp_file(dest: Path) -> tuple[int, Path]:
    """A new file ``<dest name>.<random hex>.tmp`` beside ``dest``, opened for writing (never a link)."""
    while True:
        tmp = dest.with_name(f"{dest.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666), tmp
        except FileExistsError:
            continue


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_KEY = r"paraphrase-[0-9a-f]{32}"
#: Every name this package writes in a cache directory: indexes, shipped-index notes, locks, and the
#: temporary files of an index or a note (group ``kind``: idx, shipped or lock; ``key``: the index's name).
_GENERATED = re.compile(rf"(?P<key>{_KEY})\.(?P<kind>idx|shipped|lock)(?:\.[0-9a-f]+\.tmp)?")


def generated_name(name: str) -> Optional[tuple[str, str, bool]]:
    """``(key, kind, temporary)`` if ``name`` is one this package gives a cache file, else None.

    ``key`` names the index (``paraphrase-<hash>``); ``kind`` is ``idx``, ``shipped`` or ``lock``; a
    lock file is never temporary."""
    match = _GENERATED.fullmatch(name)
    if match is None or (match["kind"] == "lock" and name.endswith(".tmp")):
        return None
    return match["key"], match["kind"], name.endswith(".tmp")


def open_regular(path: Path) -> int:
    """A read-only descriptor of the regular file at ``path`` (symbolic links followed).

    Raises ``FileNotFoundError``, or :class:`ParaphraseIndexError` for anything but a regular file (a FIFO,
    a directory, a device): opened without blocking, so a FIFO never hangs the reader."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except IsADirectoryError:
        raise ParaphraseIndexError(f"{path} is a directory, not an index file") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ParaphraseIndexError(f"{path} is {_file_kind(mode)}, not an index file")
    return fd


_NOTE = re.compile(r"([\w.-]+\.idx) ([0-9a-f]{64})\n")


def write_note(dest: Path, index_name: str, digest: str) -> None:
    """Write the note ``dest`` (which shipped index a table matched: ``<index name> <sha256>``) atomically."""
    fd, tmp = _new_temp_file(dest)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(f"{index_name} {digest}\n")
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def read_note(path: Path) -> Optional[tuple[str, str]]:
    """``(index name, sha256)`` of a note written by :func:`write_note`, or None (missing, unreadable, not one)."""
    try:
        with open(open_regular(path), "rb") as f:
            match = _NOTE.fullmatch(f.read(200).decode("ascii"))
    except (OSError, ValueError):
        return None
    return None if match is None else (match[1], match[2])


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return kind
    return "not a regular file"


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
    (raises ``FileNotFoundError``; :class:`ParaphraseIndexError` when it is not a regular file)."""
    with open(open_regular(path), "rb") as f:
        if os.fstat(f.fileno()).st_size < HEADER_SIZE:
            yield None
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            yield mm


@contextlib.contextmanager
def locked(path: Path, wait: bool = True) -> Iterator[bool]:
    """Hold an exclusive ``flock`` on the lock file ``path`` (created if missing, mode ``0o666 & ~umask``);
    yields True, or False when ``wait`` is False and another process holds it.

    The lock file is opened without following a symbolic link (one there raises
    :class:`ParaphraseIndexError`: nothing is created outside the cache); a lock file deleted or replaced
    while this process waited (``cache clear``) is opened again, so two holders never coexist."""
    if fcntl is None:
        yield True
        return
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CREAT | _NOFOLLOW | _NONBLOCK, 0o666)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise ParaphraseIndexError(f"{path} is a symbolic link where this package keeps a lock file; "
                                           "remove it (the cache holds only regular files)") from None
            raise
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise ParaphraseIndexError(f"{path} is {_file_kind(mode)} where this package keeps a lock file; "
                                           "remove it")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            if _same_file(fd, path):
                yield True
                return
        finally:
            os.close(fd)  # closing releases the lock


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    own = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (own.st_dev, own.st_ino)
