"""A context manager that pauses Python's cyclic garbage collector, process-wide and thread-safe."""

from __future__ import annotations

import contextlib
import gc
import threading
from typing import Iterator

_lock = threading.Lock()
_holders = 0  # blocks inside gc_paused(), in all threads
_restore = False  # whether the collector ran when the first of them entered


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (if it runs) for the block; reference counting still frees
    everything as usual.

    For code that keeps hundreds of thousands of small containers without reference cycles alive at
    once: the collector would rescan them again and again and find nothing to free. The collector is a
    process-wide switch, so the blocks of all threads share one count under a lock: the first to enter
    remembers whether the collector ran and stops it, the last to leave restores it. (Reading and
    setting the switch per block let one thread's block remember the pause of another's, and leave the
    collector off for good.)"""
    global _holders, _restore
    with _lock:
        if _holders == 0:
            _restore = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _restore:
                gc.enable()
