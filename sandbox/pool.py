"""A warm pool: bot processes started ahead, each waiting for its one bot's source.

Starting a jail (namespaces, mounts, cgroups, Python and the host's imports)
costs several times the Python start it wraps, and even an unjailed host is a
fresh interpreter, so the process keeps processes started ahead of the kind
last asked for: jails with the same limits, blank kept jails with the same
limits (`sandbox.kept`), or unjailed hosts. A pooled process has run only
trusted code (bwrap, and the host waiting on its first line or a kept jail's
server waiting for its first match) and serves exactly one bot: a blank kept
jail is given to one bot and is that bot's jail from then on, never another's.

How many: `TAVOLO_JAIL_POOL_SIZE` if set (0 turns the pool off), else as many
as the most bots this process has had running at once (a match's seats, so
the next match's bots start while the current one plays), at least
`DEFAULT_POOL_SIZE` and at most `MAX_POOL_SIZE`.

Processes are started ahead by one keeper thread that lives as long as the
process, because bwrap's `--die-with-parent` kills a jail when the thread
that started it ends. When the pool is empty the caller starts its process
itself.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from dataclasses import dataclass

from sandbox.exits import ORDER_BEFORE_GRAVEYARD, at_exit
from sandbox.jail import JailedProcess
from sandbox.kept import KeptJail
from sandbox.limits import JailLimits
from sandbox.processes import BotProcess, LocalProcess

log = logging.getLogger(__name__)

POOL_SIZE_VARIABLE = "TAVOLO_JAIL_POOL_SIZE"
DEFAULT_POOL_SIZE = 2
MAX_POOL_SIZE = 8
"""The most idle processes an adaptive pool keeps (each holds an interpreter's memory)."""


@dataclass(frozen=True, slots=True)
class BlankKept:
    """A kept jail with these limits that has served no bot yet."""

    limits: JailLimits


Recipe = JailLimits | BlankKept | None
"""What a pooled process is: a jail with these limits, a blank kept jail, or (None) an
unjailed host."""
Spare = BotProcess | KeptJail


def start_process(recipe: Recipe) -> Spare:
    """A new process of the kind `recipe` names."""
    if isinstance(recipe, BlankKept):
        return KeptJail(recipe.limits)
    return LocalProcess() if recipe is None else JailedProcess(recipe)


def _described(recipe: Recipe) -> str:
    if recipe is None:
        return "unjailed host"
    return "blank kept jail" if isinstance(recipe, BlankKept) else "jail"


def _discard(spares: list[Spare]) -> None:
    for spare in spares:
        spare.discard()


class ProcessPool:
    """Idle bot processes, all of the kind last asked for.

    `size` fixes how many; None lets the pool follow the demand (see the module).
    """

    def __init__(self, size: int | None) -> None:
        self.size = size
        self._idle: list[tuple[Recipe, Spare]] = []
        self._out: list[BotProcess] = []
        """Bot processes handed out and perhaps still running, to count the demand."""
        self._busiest = 0
        self._wanted: Recipe = None
        self._asked = False
        self._lock = threading.Lock()
        self._starting = threading.Lock()
        """Held by the keeper while it starts a process, so that `clear` waits for it."""
        self._wake = threading.Event()
        self._keeper: threading.Thread | None = None
        self._pid = os.getpid()

    def take(self, recipe: JailLimits | None) -> BotProcess:
        """An idle process of the kind `recipe` names if one is alive, else a new one; refill."""
        process = self._take(recipe)
        assert isinstance(process, BotProcess)
        self.running(process)
        return process

    def take_kept(self, limits: JailLimits) -> KeptJail:
        """A blank kept jail with `limits` if one is alive, else a new one; refill.

        The caller gives it to one bot, and counts its matches with `running`."""
        jail = self._take(BlankKept(limits))
        assert isinstance(jail, KeptJail)
        return jail

    def running(self, process: BotProcess) -> None:
        """Count `process` in the demand while it is alive."""
        with self._lock:
            self._out = [each for each in self._out if each.alive()]
            self._out.append(process)
            self._busiest = max(self._busiest, len(self._out))

    def _take(self, recipe: Recipe) -> Spare:
        with self._lock:
            if self._pid != os.getpid():  # forked (a prefork worker): those are the parent's
                self._forget_parent()
                at_exit(self.clear, ORDER_BEFORE_GRAVEYARD)
            self._wanted, self._asked = recipe, True
            stale = [each for kind, each in self._idle if kind != recipe or not each.alive()]
            self._idle = [(kind, each) for kind, each in self._idle if each not in stale]
            ready = self._idle.pop(0)[1] if self._idle else None
            if self._target() and self._keeper is None:
                self._keeper = threading.Thread(target=self._keep, name="jail-pool", daemon=True)
                self._keeper.start()
        _discard(stale)
        self._wake.set()
        if ready is None:
            log.debug("no %s waits in the warm pool: one starts now", _described(recipe))
            return start_process(recipe)
        log.debug("a %s from the warm pool", _described(recipe))
        return ready

    def spares(self) -> list[Spare]:
        """The idle processes and blank kept jails, ready for a bot."""
        with self._lock:
            return [each for _, each in self._idle]

    def clear(self) -> None:
        """Kill every idle process and stop refilling until the next `take`; a process
        the keeper is starting meanwhile is waited for, and killed too."""
        with self._lock:
            if self._pid != os.getpid():  # forked: they are the parent's to kill
                self._forget_parent()
                return
        with self._starting:
            with self._lock:
                idle, self._idle, self._asked = self._idle, [], False
            _discard([each for _, each in idle])

    def _forget_parent(self) -> None:
        """In a forked child: the idle processes, the keeper and its lock are the parent's."""
        self._idle, self._out, self._keeper, self._pid = [], [], None, os.getpid()
        self._starting = threading.Lock()

    def _target(self) -> int:
        """How many idle processes to keep (the lock held)."""
        if self.size is not None:
            return self.size
        return min(MAX_POOL_SIZE, max(DEFAULT_POOL_SIZE, self._busiest))

    def _keep(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                while self._start_one():
                    pass
            except Exception:
                # Whatever it was, the pool must not stop refilling: the next `take` wakes
                # the keeper to try again (and meanwhile callers start their own).
                log.exception("the warm pool could not start a process; it tries again later")

    def _start_one(self) -> bool:
        """Start one more process if the pool is short of one; False if it is not."""
        with self._starting:
            shortfall = self._shortfall()
            if shortfall is None:
                return False
            (recipe,) = shortfall
            process = start_process(recipe)
            with self._lock:
                wanted = self._asked and recipe == self._wanted
                if wanted:
                    self._idle.append((recipe, process))
            if not wanted:
                _discard([process])
            return True

    def _shortfall(self) -> tuple[Recipe] | None:
        """The kind of process to start one more of, or None if the pool is full."""
        with self._lock:
            if not self._asked or len(self._idle) >= self._target():
                return None
            return (self._wanted,)


@functools.cache
def shared_pool() -> ProcessPool:
    """The process's pool: TAVOLO_JAIL_POOL_SIZE processes (0 for none), else as demand asks."""
    configured = os.environ.get(POOL_SIZE_VARIABLE)
    pool = ProcessPool(int(configured) if configured else None)
    at_exit(pool.clear, ORDER_BEFORE_GRAVEYARD)
    return pool
