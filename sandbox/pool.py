"""A warm pool: jails started ahead, each waiting for its one bot's source.

Starting a jail (namespaces, mounts, Python) costs more than the Python start
it wraps, so each thread keeps `size` jails started ahead with the limits it
last asked for. A pooled jail has run only trusted code (bwrap and the host
waiting on its first line), and serves exactly one bot: it is never a fork
server shared between bots. The pool is per thread because bwrap's
`--die-with-parent` ties a jail to the thread that started it.
"""

from __future__ import annotations

import os
import threading
import weakref

from sandbox.jail import JailedProcess
from sandbox.limits import JailLimits

POOL_SIZE_VARIABLE = "TAVOLO_JAIL_POOL_SIZE"
DEFAULT_POOL_SIZE = 2


def _discard(jails: list[JailedProcess]) -> None:
    while jails:
        jail = jails.pop()
        jail.kill()
        jail.close_pipes()


class JailPool:
    """Up to `size` idle jails, all with the limits last asked for."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._idle: list[JailedProcess] = []
        weakref.finalize(self, _discard, self._idle)

    def take(self, limits: JailLimits) -> JailedProcess:
        """An idle jail with `limits` if one is alive, else a new one."""
        if any(jail.limits != limits for jail in self._idle):
            _discard(self._idle)
        while self._idle:
            jail = self._idle.pop(0)
            if jail.alive():
                return jail
            _discard([jail])
        return JailedProcess(limits)

    def refill(self, limits: JailLimits) -> None:
        """Start jails with `limits` until `size` are idle."""
        while len(self._idle) < self.size:
            self._idle.append(JailedProcess(limits))

    def clear(self) -> None:
        _discard(self._idle)


_local = threading.local()


def thread_pool() -> JailPool:
    """This thread's pool, sized by the TAVOLO_JAIL_POOL_SIZE variable (default 2, 0 for none)."""
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = JailPool(int(os.environ.get(POOL_SIZE_VARIABLE, DEFAULT_POOL_SIZE)))
    return pool
