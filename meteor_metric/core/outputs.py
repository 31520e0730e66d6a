"""Output files written atomically, and never onto an input.

:func:`atomic_output` writes to a temporary file in the destination's directory and renames it into
place only when the content is complete: a failure (or Ctrl-C) midway leaves the previous file as it
was and no temporary file behind. :func:`check_outputs` refuses an output that is one of the inputs
(the same file by any name: a link, ``./``, a relative path) or another output.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator, Sequence
from typing import IO, Optional

__all__ = ["atomic_output", "check_outputs"]


@contextlib.contextmanager
def atomic_output(path: str, binary: bool = False) -> Iterator[IO]:
    """A file to write ``path``'s new content to; it replaces ``path`` when the block ends without error.

    The new file has the mode a new file gets (``0o666 & ~umask``), or the mode of the file it replaces."""
    directory, name = os.path.split(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        mode = None
    while True:
        tmp = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
            break
        except FileExistsError:
            continue
    try:
        if mode is not None:
            with contextlib.suppress(OSError, NotImplementedError):
                os.chmod(fd, mode)
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def check_outputs(outputs: Sequence[tuple[str, Optional[str]]], inputs: Sequence[tuple[str, Optional[str]]]) -> None:
    """Raise ``ValueError`` if an output (``(flag, path)``; None: not given) is one of the ``inputs``
    (``(flag, path)``) or another output; ``-`` (standard input) is no file."""
    given = [(flag, path) for flag, path in outputs if path]
    for k, (flag, path) in enumerate(given):
        for other_flag, other in [(f, p) for f, p in inputs if p and p != "-"] + given[:k]:
            if _same_file(path, other):
                role = "another output" if (other_flag, other) in given else "an input"
                raise ValueError(f"{flag} {path} is the same file as {other_flag} {other} ({role}): writing it "
                                 f"would destroy that file; choose another {flag} path")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist yet: the same path?
        return os.path.realpath(a) == os.path.realpath(b)
