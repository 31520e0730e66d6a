"""``meteor-metric cache``: build, show and clear the compiled paraphrase indexes."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TextIO

from ..meteor15.index_cache import IndexFile, clear_cache, inspect_index, list_indexes, prepare
from ..meteor15.paraphrase import default_cache_dir, shipped_indexes
from . import common as cli

CACHE_EPILOG = """\
examples:
  meteor-metric cache build                              # map English's index (shipped: nothing to build)
  meteor-metric cache build --paraphrase-table my-table.gz   # compile another table once, before scoring
  meteor-metric cache info                               # every index, checked section by section
  meteor-metric cache clear                              # delete this package's files from the cache

English's index ships with the package and is used as it is (no table needed; a table given with
--paraphrase-table uses it too when its sha256 matches). Any other table is compiled once into the
cache directory: --cache-dir, else $METEOR_METRIC_CACHE, else $XDG_CACHE_HOME/meteor-metric, else
~/.cache/meteor-metric. A damaged index is rebuilt on its next use; 'clear' never touches the
shipped indexes or other files.
"""


def add_parser(commands) -> argparse.ArgumentParser:
    """Register ``cache`` with its actions ``build``, ``info`` and ``clear``."""
    cache = commands.add_parser(
        "cache", help="build, show or clear the compiled paraphrase indexes",
        description="Build, show or clear the compiled paraphrase indexes.",
        epilog=f"{CACHE_EPILOG}\n{cli.EXIT_HELP}", formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = cache.add_subparsers(dest="action", required=True, metavar="ACTION")
    build = actions.add_parser("build", help="map or compile a table's index now (not at the first score)")
    build.add_argument("-l", "--lang", default="en", metavar="LANG", help="the table of this language (default en)")
    build.add_argument("--paraphrase-table", metavar="FILE", help="this table instead (METEOR's format, gzip'd)")
    info = actions.add_parser("info", help="list the indexes, each checked (header and section crc32s)")
    info.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    clear = actions.add_parser("clear", help="delete this package's files from the cache directory")
    for action in (build, info, clear):
        action.add_argument("--cache-dir", type=cache_directory, metavar="DIR",
                            help="the cache directory (default: $METEOR_METRIC_CACHE, else the user cache)")
    return cache


def cache_directory(value: str) -> Path:
    """A ``--cache-dir`` value: not empty (that would be the current directory), ``~`` expanded."""
    if not value.strip():
        raise argparse.ArgumentTypeError("expected a directory, got an empty path (that would be the current "
                                         "directory)")
    return Path(value).expanduser()


def run(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``cache ACTION``."""
    cache_dir = args.cache_dir or default_cache_dir()
    if args.action == "build":
        _build(args, cache_dir, out)
    elif args.action == "info":
        _info(list_indexes(cache_dir), cache_dir, args.format, out)
    else:
        try:
            cleared = clear_cache(cache_dir)
        except ValueError as exc:
            raise cli.InputError(str(exc)) from None
        n, freed = len(cleared.removed), sum(size for _, size in cleared.removed)
        out.write(f"removed {n} file{'' if n == 1 else 's'} ({_size(freed)}) from {cache_dir}\n")
        if cleared.in_use:
            out.write(f"left {len(cleared.in_use)} file(s) of an index being built now; run 'cache clear' "
                      f"again when the build is done: {', '.join(p.name for p in cleared.in_use)}\n")


def _build(args: argparse.Namespace, cache_dir: Path, out: TextIO) -> None:
    start = time.perf_counter()
    try:
        table = prepare(args.lang, args.paraphrase_table, cache_dir)
    except ValueError as exc:
        raise cli.InputError(str(exc)) from None
    seconds = time.perf_counter() - start
    shipped = table.index_path in shipped_indexes()
    index = inspect_index(table.index_path, shipped=shipped)
    where = "shipped with the package" if shipped else f"in {cache_dir}"
    out.write(f"ready in {seconds:.1f} s: {index.path} ({where}; {index.entries:,} entries, "
              f"{_size(index.bytes)}) for {table.source}\n")


def _info(indexes: list[IndexFile], cache_dir: Path, fmt: str, out: TextIO) -> None:
    if fmt == "json":
        json.dump({"cache_dir": str(cache_dir),
                   "indexes": [{"path": str(i.path), "shipped": i.shipped, "bytes": i.bytes, "valid": i.valid,
                                "problem": i.problem, "source": i.source, "table_sha256": i.table_sha256,
                                "entries": i.entries} for i in indexes]}, out, ensure_ascii=False)
        out.write("\n")
        return
    out.write(f"cache directory: {cache_dir}\n")
    for i in indexes:
        state = "ok" if i.valid else f"UNUSABLE ({i.problem}; rebuilt on next use)"
        kind = "shipped" if i.shipped else "cached"
        detail = (f"{i.entries:,} entries, {_size(i.bytes)}, from {i.source} (sha256 {i.table_sha256[:16]})"
                  if i.source else _size(i.bytes))
        out.write(f"{kind:8} {state:3}  {i.path}\n         {detail}\n")
    cached = [i for i in indexes if not i.shipped]
    out.write(f"{len(cached)} cached index{'' if len(cached) == 1 else 'es'}, "
              f"{_size(sum(i.bytes for i in cached))}\n")


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 2**10:.1f} KiB" if n >= 2**10 else f"{n} bytes"
