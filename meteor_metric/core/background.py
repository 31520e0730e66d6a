"""A call run in a thread while the caller does other work (loading two resources at once)."""

from __future__ import annotations

import threading
from typing import Callable, Generic, Optional, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """``function(*args)`` started in a daemon thread; :meth:`result` waits for it and returns its value
    or raises its exception. Worth it where the call spends its time without the interpreter lock (zlib's
    checksums and decompression, reading and mapping files)."""

    def __init__(self, function: Callable[..., T], *args):
        self._value: Optional[T] = None
        self._error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._run, args=(function, args), daemon=True)
        self._thread.start()

    def _run(self, function: Callable[..., T], args: tuple) -> None:
        try:
            self._value = function(*args)
        except BaseException as exc:  # handed to the caller by result()
            self._error = exc

    def join(self) -> None:
        """Wait for the call to end."""
        self._thread.join()

    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value
