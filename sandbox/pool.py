"""A warm pool: jails started ahead, each waiting for its one bot's source.

Starting a jail (namespaces, mounts, cgroups, Python and the host's imports)
costs several times the Python start it wraps, so the process keeps `size`
jails started ahead with the limits last asked for. A pooled jail has run
only trusted code (bwrap, and the host waiting on its first line) and serves
exactly one bot: it is never a fork server shared between bots.

Jails are started ahead by one keeper thread that lives as long as the
process, because bwrap's `--die-with-parent` kills a jail when the thread
that started it ends. When the pool is empty the caller starts its jail
itself.
"""

from __future__ import annotations

import atexit
import functools
import os
import threading

from sandbox.jail import JailedProcess
from sandbox.limits import JailLimits

POOL_SIZE_VARIABLE = "TAVOLO_JAIL_POOL_SIZE"
DEFAULT_POOL_SIZE = 2


def _discard(jails: list[JailedProcess]) -> None:
    for jail in jails:
        jail.kill()
        jail.close_pipes()


class JailPool:
    """Up to `size` idle jails, all with the limits last asked for."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._idle: list[JailedProcess] = []
        self._wanted: JailLimits | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._keeper: threading.Thread | None = None
        self._pid = os.getpid()

    def take(self, limits: JailLimits) -> JailedProcess:
        """An idle jail with `limits` if one is alive, else a new one; then refill."""
        with self._lock:
            if self._pid != os.getpid():  # forked (a prefork worker): the jails are the parent's
                self._idle, self._keeper, self._pid = [], None, os.getpid()
            self._wanted = limits
            stale = [jail for jail in self._idle if jail.limits != limits or not jail.alive()]
            self._idle = [jail for jail in self._idle if jail not in stale]
            ready = self._idle.pop(0) if self._idle else None
            if self.size and self._keeper is None:
                self._keeper = threading.Thread(target=self._keep, name="jail-pool", daemon=True)
                self._keeper.start()
        _discard(stale)
        self._wake.set()
        return ready or JailedProcess(limits)

    def clear(self) -> None:
        """Kill every idle jail and stop refilling until the next `take`."""
        with self._lock:
            idle, self._idle, self._wanted = self._idle, [], None
        _discard(idle)

    def _keep(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            while (limits := self._shortfall()) is not None:
                jail = JailedProcess(limits)
                with self._lock:
                    wanted = limits == self._wanted
                    if wanted:
                        self._idle.append(jail)
                if not wanted:
                    _discard([jail])

    def _shortfall(self) -> JailLimits | None:
        """The limits to start one more jail with, or None if the pool is full."""
        with self._lock:
            return self._wanted if len(self._idle) < self.size else None


@functools.cache
def shared_pool() -> JailPool:
    """The process's pool, sized by TAVOLO_JAIL_POOL_SIZE (default 2; 0 for none)."""
    pool = JailPool(int(os.environ.get(POOL_SIZE_VARIABLE, DEFAULT_POOL_SIZE)))
    atexit.register(pool.clear)
    return pool
