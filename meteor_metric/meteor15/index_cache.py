"""The compiled paraphrase indexes on disk: prepare, inspect and clear them (``meteor-metric cache``).

Two places hold indexes: the package's shipped ones (``resources/paraphrase/*.idx``, read only) and the
cache directory (:func:`~meteor_metric.paraphrase.default_cache_dir`), where an index is built for any
other table. English's shipped index is used as it is when no table is given; a small ``.shipped`` note in
the cache remembers which shipped index a given table matched (by sha256).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

from .paraphrase import ParaphraseTable, default_cache_dir, load_paraphrase_table, shipped_indexes
from .paraphrase_index import damaged_sections, mapped_index, read_header

PathLike = Union[str, Path]

# indexes, shipped-index notes, lock files, and what an interrupted write leaves behind
_CACHE_PATTERNS = ("paraphrase-*.idx", "paraphrase-*.shipped", "paraphrase-*.lock", "paraphrase-*.tmp",
                   ".tmp-*.idx")


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
    """What the index file at ``path`` records, with its header and every section checked."""
    size = path.stat().st_size
    with mapped_index(path) as mm:
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
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    found = [inspect_index(p, shipped=True) for p in shipped_indexes()]
    if cache.is_dir():
        found += [inspect_index(p) for p in sorted(cache.glob("paraphrase-*.idx"))]
    return found


def clear_cache(cache_dir: Optional[PathLike] = None) -> list[tuple[Path, int]]:
    """Delete this package's files from ``cache_dir`` (indexes, notes, locks, leftovers): each removed path
    with its size in bytes.

    Shipped indexes are never touched; other files in the directory are left alone."""
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    removed = []
    if cache.is_dir():
        for pattern in _CACHE_PATTERNS:
            for path in sorted(cache.glob(pattern)):
                if path.is_file():
                    size = path.stat().st_size
                    os.remove(path)
                    removed.append((path, size))
    return removed
