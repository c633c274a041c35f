"""One run at a time per key in this process: the others wait for it or go without.

When 20 requests arrive together for a page or a document nobody has made
yet, one of them makes it and the rest wait for that (`wait_for`), rather than
20 makings queueing for the same cores.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_running: dict[str, threading.Event] = {}


@contextmanager
def leading(key: str) -> Iterator[bool]:
    """True inside if this thread now runs `key`'s work, False if another thread does.

    The work ends, for those waiting on it, when the block is left, however it is left.
    """
    with _lock:
        if key in _running:
            done = None
        else:
            done = _running[key] = threading.Event()
    if done is None:
        yield False
        return
    try:
        yield True
    finally:
        with _lock:
            del _running[key]
        done.set()


def wait_for(key: str, seconds: float) -> None:
    """Return when the thread running `key`'s work has left it (at once if none is), or
    after `seconds`."""
    with _lock:
        done = _running.get(key)
    if done is not None:
        done.wait(seconds)
