"""The compiled paraphrase indexes on disk: prepare, inspect and clear them (``meteor-metric cache``).

Two places hold indexes: the package's shipped ones (``resources/paraphrase/*.idx``, read only) and the
cache directory (:func:`~meteor_metric.paraphrase.default_cache_dir`), where an index is built for any
other table. English's shipped index is used as it is when no table is given; a small ``.shipped`` note in
the cache remembers which shipped index a given table matched (by sha256).
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

from .paraphrase import (ParaphraseTable, default_cache_dir, load_paraphrase_table,
                         shipped_indexes)
from .paraphrase_index import (MAGIC, ParaphraseIndexError, damaged_sections, generated_name, locked, mapped_index,
                               read_header, read_note)

PathLike = Union[str, Path]


@dataclass(frozen=True)
class IndexFile:
    """One index file and what it says about itself."""

    path: Path
    shipped: bool  # part of the package (else: in the cache directory)
    bytes: int  # of the index file
    valid: bool  # header and every section's crc32 sound
    problem: str  # why not valid ("" when valid)
    source: str  # the table it was compiled from, as recorded at build time
    table_sha256: str  # of that table, hex ("" when unreadable)
    entries: int  # paraphrase entries in the table (0 when unreadable)


def prepare(language: str = "en", paraphrase_table: Optional[PathLike] = None,
            cache_dir: Optional[PathLike] = None) -> ParaphraseTable:
    """Map (or build, once) the index of ``language``'s table, or of ``paraphrase_table``.

    Raises :class:`~meteor_metric.paraphrase.ParaphraseTableNotFound` naming what was searched."""
    return load_paraphrase_table(language, paraphrase_table, cache_dir)


def inspect_index(path: Path, shipped: bool = False) -> IndexFile:
    """What the index file at ``path`` records, with its header and every section checked (a FIFO, a
    directory or anything else that is not a regular file is reported as unusable, never read)."""
    size = path.stat().st_size
    try:
        with mapped_index(path) as mm:
            return _inspect_mapped(path, shipped, size, mm)
    except ParaphraseIndexError as exc:
        return IndexFile(path, shipped, size, False, str(exc).replace(f"{path} is ", "", 1), "", "", 0)


def _inspect_mapped(path: Path, shipped: bool, size: int, mm) -> IndexFile:
    """:func:`inspect_index` of the mapped file ``mm`` (None: shorter than a header)."""
    if mm is None:
        return IndexFile(path, shipped, size, False, "shorter than an index header", "", "", 0)
    head = read_header(mm)
    if head is None:
        return IndexFile(path, shipped, size, False, "not an index of this version (bad header)", "", "", 0)
    lo, hi = head.sections["source"]
    source = bytes(mm[lo:hi]).decode("utf-8", "replace")
    damaged = damaged_sections(mm, head)
    problem = f"damaged sections: {', '.join(damaged)}" if damaged else ""
    return IndexFile(path, shipped, size, not damaged, problem, source, head.sha256, head.entries)


def list_indexes(cache_dir: Optional[PathLike] = None) -> list[IndexFile]:
    """The shipped indexes, then those in ``cache_dir`` (default: :func:`default_cache_dir`)."""
    cache = _cache_path(cache_dir)
    found = [inspect_index(p, shipped=True) for p in shipped_indexes()]
    if cache.is_dir():
        found += [inspect_index(p) for p in sorted(cache.glob("paraphrase-*.idx"))]
    return found


@dataclass(frozen=True)
class Cleared:
    """What :func:`clear_cache` did: the files removed (each with its size in bytes), and the files of
    indexes being built at that moment, left in place."""

    removed: list[tuple[Path, int]] = field(default_factory=list)
    in_use: list[Path] = field(default_factory=list)


def clear_cache(cache_dir: Optional[PathLike] = None) -> Cleared:
    """Delete this package's files from ``cache_dir``: only regular files (never a symbolic link) with a
    name this package generates and the content it writes there (an index or an interrupted index
    starts with the index magic; a note is one line naming a shipped index and a sha256; a lock file is
    empty). Each index's files are deleted under its lock; those of a build under way are left alone.

    Raises ``ValueError`` for an empty path and for a directory inside the package (its shipped indexes)."""
    if isinstance(cache_dir, str) and not cache_dir.strip():
        raise ValueError("the cache directory is an empty path (it would mean the current directory); "
                         "give the directory, e.g. ~/.cache/meteor-metric")
    cache = _cache_path(cache_dir)
    package = Path(__file__).resolve().parents[1]
    real = cache.resolve()
    if real == package or package in real.parents:
        raise ValueError(f"{cache} is inside the meteor_metric package ({package}), whose shipped indexes "
                         "are never deleted; give the cache directory (meteor-metric cache info shows it)")
    result = Cleared()
    if not cache.is_dir():
        return result
    by_key: dict[str, list[Path]] = {}
    for path in sorted(cache.iterdir()):
        named = generated_name(path.name)
        if named is not None and _written_here(path, named[1]):
            by_key.setdefault(named[0], []).append(path)
    for key, paths in by_key.items():
        lock = cache / f"{key}.lock"
        with locked(lock, wait=False) as held:
            if not held:
                result.in_use.extend(paths)
                continue
            for path in [p for p in paths if p != lock] + [lock]:  # the lock file last, while it is held
                with contextlib.suppress(FileNotFoundError):
                    size = path.lstat().st_size
                    os.remove(path)
                    if path in paths:  # not a lock file made just now to take the lock
                        result.removed.append((path, size))
    return result


def _cache_path(cache_dir: Optional[PathLike]) -> Path:
    return Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()


def _written_here(path: Path, kind: str) -> bool:
    """Whether ``path`` is a regular file (not a link) holding what this package writes under a ``kind`` name."""
    try:
        st = path.lstat()
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    if kind == "lock":
        return st.st_size == 0
    if kind == "shipped":
        return read_note(path) is not None
    try:
        with open(path, "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False
