"""The paraphrase-index cache under hostile file systems, through the CLI in a subprocess.

``cache clear`` deletes only what the package wrote; indexes are written with the user's umask; a FIFO,
a directory or a symbolic link where the cache keeps a file is reported, never followed into a hang or
outside the cache. The table is ``data/paraphrase-mini.gz`` (989 entries of pycocoevalcap 1.2's
``paraphrase-en.gz``); scores with a hostile cache are compared with the same command on a clean cache.
"""

from __future__ import annotations

import fcntl
import os
import stat
import subprocess
import sys
from pathlib import Path

import meteor_metric
from meteor_metric.meteor15.paraphrase import build_index
from meteor_metric.meteor15.paraphrase_index import MAGIC, index_location, read_header

MINI = Path(__file__).parent / "data" / "paraphrase-mini.gz"
PACKAGE = Path(meteor_metric.__file__).resolve().parent
HYP, REF = "the cat sat upon the mat\nhe said so\n", "the cat sat on the mat\nhe stated it\n"


def cli(*args: str, env: dict | None = None, cwd: Path | None = None, timeout: float = 120,
        prelude: str = "") -> subprocess.CompletedProcess:
    """``meteor-metric ARGS`` in a new Python process (``prelude``: code run first, e.g. a patch)."""
    code = f"import sys\n{prelude}\nfrom meteor_metric.cli.main import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, cwd=cwd)


def mini_index(cache: Path) -> Path:
    """Where the mini table's index lives in ``cache``."""
    return index_location(MINI, os.stat(MINI), cache)


def score(tmp_path: Path, cache: Path, **kwargs) -> subprocess.CompletedProcess:
    (tmp_path / "h.txt").write_text(HYP)
    (tmp_path / "r.txt").write_text(REF)
    return cli("score", "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"),
               "--paraphrase-table", str(MINI), env={"METEOR_METRIC_CACHE": str(cache)}, **kwargs)


def test_clear_deletes_only_files_the_package_wrote(tmp_path):
    cache = tmp_path / "cache"
    assert cli("cache", "build", "--paraphrase-table", str(MINI), "--cache-dir", str(cache)).returncode == 0
    index = mini_index(cache)
    outside = tmp_path / "precious.idx"
    outside.write_bytes(index.read_bytes())  # an index's bytes, reached only through a link
    foreign = {"paraphrase-mine.idx": b"my notes", "paraphrase-x.tmp": b"draft", ".tmp-mydata.idx": b"data",
               "notes.txt": b"not ours", "paraphrase-" + "a" * 32 + ".idx": b"named like an index, is not",
               "paraphrase-" + "b" * 32 + ".shipped": b"free text"}
    for name, data in foreign.items():
        (cache / name).write_bytes(data)
    link = cache / ("paraphrase-" + "c" * 32 + ".idx")
    link.symlink_to(outside)
    done = cli("cache", "clear", "--cache-dir", str(cache))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("removed 2 files")  # the index and its lock file
    assert not index.exists() and not index.with_suffix(".lock").exists()
    assert sorted(p.name for p in cache.iterdir()) == sorted([*foreign, link.name])
    assert outside.read_bytes()[:len(MAGIC)] == MAGIC and link.is_symlink()


def test_clear_refuses_an_empty_path_and_the_package(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    build_index(MINI, work / mini_index(work).name)  # an index in the current directory
    done = cli("cache", "clear", "--cache-dir", "", cwd=work)
    assert done.returncode == 2 and "empty path" in done.stderr and "Traceback" not in done.stderr
    assert len(list(work.glob("paraphrase-*.idx"))) == 1
    shipped = sorted((PACKAGE / "resources" / "paraphrase").iterdir())
    done = cli("cache", "clear", "--cache-dir", str(PACKAGE / "resources" / "paraphrase"))
    assert done.returncode == 2 and "inside the meteor_metric package" in done.stderr
    assert sorted((PACKAGE / "resources" / "paraphrase").iterdir()) == shipped


def test_clear_leaves_a_build_under_way_alone(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    index = mini_index(cache)
    temporary = index.with_name(index.name + ".0a1b2c3d.tmp")
    temporary.write_bytes(MAGIC + bytes(100))  # what a builder has written so far
    lock = index.with_suffix(".lock")
    fd = os.open(lock, os.O_RDONLY | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # the builder holds the lock
        done = cli("cache", "clear", "--cache-dir", str(cache))
        assert done.returncode == 0 and done.stdout.startswith("removed 0 files")
        assert "left 2 file(s) of an index being built now" in done.stdout
        assert temporary.exists() and lock.exists()
    finally:
        os.close(fd)
    done = cli("cache", "clear", "--cache-dir", str(cache))
    assert done.stdout.startswith("removed 2 files") and list(cache.iterdir()) == []


def test_indexes_are_written_with_the_users_umask(tmp_path):
    cache = tmp_path / "cache"
    done = cli("cache", "build", "--paraphrase-table", str(MINI), "--cache-dir", str(cache),
               prelude="import os; os.umask(0o022)")
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(mini_index(cache).stat().st_mode) == 0o644


def test_a_fifo_at_the_index_path_is_damage_not_a_hang(tmp_path):
    expected = score(tmp_path, tmp_path / "clean")
    assert expected.returncode == 0, expected.stderr
    cache = tmp_path / "cache"
    cache.mkdir()
    os.mkfifo(mini_index(cache))
    info = cli("cache", "info", "--cache-dir", str(cache), timeout=60)
    assert info.returncode == 0 and "UNUSABLE (a FIFO (named pipe), not an index file" in info.stdout
    done = score(tmp_path, cache, timeout=60)
    assert done.returncode == 0 and done.stdout == expected.stdout
    assert "is a FIFO (named pipe), not an index file; rebuilding it" in done.stderr
    assert stat.S_ISREG(mini_index(cache).stat().st_mode)


def test_a_directory_at_the_index_path_is_named(tmp_path):
    cache = tmp_path / "cache"
    mini_index(cache).mkdir(parents=True)
    done = score(tmp_path, cache, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{mini_index(cache)} is a directory, where the index belongs; remove it" in done.stderr


def test_a_symlink_at_a_lock_path_creates_nothing_outside_the_cache(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    outside = tmp_path / "outside" / "created-by-lock"
    outside.parent.mkdir()
    mini_index(cache).with_suffix(".lock").symlink_to(outside)
    done = cli("cache", "build", "--paraphrase-table", str(MINI), "--cache-dir", str(cache))
    assert done.returncode == 2 and "is a symbolic link where this package keeps a lock file" in done.stderr
    assert not outside.exists() and "Traceback" not in done.stderr


def test_a_tilde_in_the_cache_variable_is_the_home_directory(tmp_path):
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    done = cli("cache", "build", "--paraphrase-table", str(MINI), cwd=work,
               env={"HOME": str(home), "METEOR_METRIC_CACHE": "~/x"})
    assert done.returncode == 0, done.stderr
    assert list(work.iterdir()) == [] and mini_index(home / "x").is_file()


def test_a_damaged_shipped_index_is_announced_once(tmp_path):
    shipped = tmp_path / "shipped" / "paraphrase-mini.idx"
    shipped.parent.mkdir()
    build_index(MINI, shipped, mtime_ns=0, label="mini (as if shipped)")
    data = bytearray(shipped.read_bytes())
    lo, hi = read_header(bytes(data)).sections["tok"]
    data[(lo + hi) // 2] ^= 0x04
    shipped.write_bytes(bytes(data))
    patch = f"from meteor_metric.meteor15 import paraphrase as pp\npp.shipped_indexes = lambda: [{str(shipped)!r}]"
    patch = patch.replace("[", "[__import__('pathlib').Path(").replace("]", ")]")
    expected = score(tmp_path, tmp_path / "clean")
    runs = [score(tmp_path, tmp_path / "cache", prelude=patch) for _ in range(3)]
    assert [r.stdout for r in runs] == [expected.stdout] * 3
    assert ["damaged" in r.stderr for r in runs] == [True, False, False], [r.stderr for r in runs]
