"""Kept jails: one jail serves one bot's matches one after another, each in new namespaces.

A kept jail's server (`sandbox.host.serve_matches`) forks, for every match, a
child in new pid, mount and IPC namespaces with a fresh /tmp and /dev/shm,
that drops its capabilities and loads the whole policy's filter before the
bot's source is read. The runner puts that child in a cgroup of its own
inside the jail's, pauses and kills it there, and gives the jail back to the
process's kept jails when the match child is gone. Jails are kept by the
bot's source and limits (docs/sandbox.md). They are the default; with
``TAVOLO_KEPT_JAILS=0`` every bot gets a new jail.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import itertools
import logging
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sandbox import policy
from sandbox.botuser import jail_account, start_as
from sandbox.cgroups import BotCgroup, graveyard, hierarchy
from sandbox.exits import ORDER_BEFORE_GRAVEYARD, at_exit
from sandbox.forked import ACK_SECONDS, ForkedMatch, match_channels
from sandbox.jail import StartGate
from sandbox.limits import JailLimits
from sandbox.lone_host import GroupPause
from sandbox.processes import HOST_FILE
from sandbox.readiness import readable
from sandbox.seccomp import filter_program, memory_fd
from sandbox.warden import watch_runner

log = logging.getLogger(__name__)
FALLBACK = {"jail_event": "fallback"}

KEPT_VARIABLE = "TAVOLO_KEPT_JAILS"
"""Set to 0 for a new jail (and a new unjailed host) per bot; kept jails are the default."""
MATCH_ALONE = 2
"""Tasks in a match group whose bot is one single-threaded process: its init and the host."""
MAX_KEPT = 8
"""The most idle kept jails a process holds."""


JailKey = tuple[bytes, JailLimits]
"""Whose a kept jail is: the SHA-256 of its bot's source, and its limits."""


class KeptJail:
    """A jail whose server forks a fresh match child for each match of one bot.

    A new jail is blank (its `key` None) until it is given to a bot, whose alone it is
    from then on."""

    def __init__(self, limits: JailLimits) -> None:
        """Raises OSError if it cannot start (or this machine has no cgroups for it)."""
        self.limits = limits
        self.key: JailKey | None = None
        found = hierarchy()
        if found is None:
            raise OSError("kept jails need cgroups")
        watch_runner()
        self.cgroup: BotCgroup = found.create()
        self._matches = itertools.count()
        self._server: int | None = None
        gate = StartGate()
        seccomp_fd = memory_fd("tavolo-seccomp", filter_program(kept_server=True))
        match_fd = memory_fd("tavolo-match-filter", filter_program())
        host_fd = memory_fd("tavolo-host", HOST_FILE.read_bytes())
        argv = policy.bwrap_argv(
            limits, seccomp_fd=seccomp_fd, host_fd=host_fd, match_filter_fd=match_fd
        )
        argv[1:1] = gate.flags
        switch, as_account = start_as(jail_account())
        self.control, child_control = socket.socketpair()
        try:
            self.server_group = self.cgroup.child("server")
            self.popen = subprocess.Popen(
                [*switch, *argv],
                stdin=child_control.fileno(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={},
                pass_fds=(seccomp_fd, host_fd, match_fd, *gate.fds),
                **as_account,
            )
            deadline = time.monotonic() + limits.startup_seconds
            child = gate.let_in(self.server_group, self.popen.pid, deadline)
            self._wrappers = {self.popen.pid} | ({child} if child else set())
        except BaseException:
            self.control.close()
            with contextlib.suppress(AttributeError):
                self.popen.kill()
                self.popen.wait()
            self.cgroup.remove()
            raise
        finally:
            for fd in (seccomp_fd, host_fd, match_fd):
                os.close(fd)
            child_control.close()
            gate.close()
        log.debug("kept jail started: pid %d", self.popen.pid, extra={"jail_event": "spawn"})

    def alive(self) -> bool:
        return self.popen.poll() is None

    def _server_pid(self, deadline: float) -> int:
        while self._server is None:
            others = [pid for pid in self.server_group.processes() if pid not in self._wrappers]
            if others:
                self._server = others[0]
            elif time.monotonic() > deadline or not self.alive():
                raise OSError("the kept jail's server did not start")
            else:
                time.sleep(0.001)
        return self._server

    def start_match(self) -> MatchProcess:
        """A fresh match child, its protocol socket and stderr, in a new group of its own.

        Raises OSError (and closes the jail) if the server does not fork it.
        """
        deadline = time.monotonic() + self.limits.startup_seconds
        group = self.cgroup.child(f"match-{next(self._matches)}")
        with match_channels(on_failure=self.close) as channels:
            server = self._server_pid(deadline)
            # The match's init and the host count as bwrap's two processes do in a new jail.
            group.limit(memory_bytes=self.limits.memory_bytes, processes=self.limits.processes + 2)
            group.adopt([server])  # the match child is forked there; the server goes back after
            sizes = f"{self.limits.tmp_bytes} {self.limits.shm_bytes}".encode()
            socket.send_fds(self.control, [sizes], channels.match_ends)
            ready = readable(self.control, ACK_SECONDS)
            if not ready or self.control.recv(1) != b"f":
                raise OSError("the kept jail's server did not fork a match")
            self.server_group.adopt([server])
        return MatchProcess(
            self, group, channels.protocol.detach(), channels.stderr, channels.status
        )

    def close(self) -> None:
        """Kill the jail and everything in it."""
        log.debug("kept jail killed: pid %d", self.popen.pid, extra={"jail_event": "end"})
        with contextlib.suppress(OSError):
            self.control.close()
        for group in (self.server_group, *self.cgroup.children()):
            with contextlib.suppress(FileNotFoundError):
                group.kill()
            group.release()  # the graveyard deletes the directories with files of its own
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.popen.pid, signal.SIGKILL)
        self.popen.wait()
        graveyard.bury(self.cgroup)

    discard = close
    """A blank jail no bot will use is closed (as the warm pool discards its spares)."""


class MatchProcess(ForkedMatch):
    """One match of a kept jail: the bot's host and what it starts, in the match's group."""

    def __init__(
        self, jail: KeptJail, group: BotCgroup, protocol: int, stderr: int, status: int
    ) -> None:
        super().__init__(protocol, stderr, status)
        self.jail, self.cgroup = jail, group
        self._pausing = GroupPause(group, MATCH_ALONE, self._host_pid)

    @property
    def pid(self) -> int:
        return self.jail.popen.pid

    def _host_pid(self) -> int | None:
        """The match's pid 2: the host."""
        for pid in self.cgroup.processes():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("NSpid:") and line.split()[-1] == "2":
                        return pid
        return None

    def pause(self) -> None:
        self._pausing.pause()

    def broke_pause(self) -> bool:
        return self._pausing.broke_pause()

    def resume(self) -> None:
        self._pausing.resume()

    def kill(self) -> None:
        if self._killed:
            return
        self._killed = True
        self._pausing.close()
        self.cgroup.kill()
        log.debug("a kept jail's match killed: jail pid %d", self.pid, extra={"jail_event": "end"})
        graveyard.bury(self.cgroup)
        kept_jails().give_back(self.jail)

    def limit_note(self) -> str:
        return " (memory limit reached)" if self.cgroup.out_of_memory() else ""


def _first_match(jail: KeptJail, key: JailKey) -> MatchProcess:
    """Give a blank jail to the bot of `key`, and start its first match there."""
    jail.key = key
    return jail.start_match()


class KeptJails:
    """This process's idle kept jails, by bot source and limits, the least recently used first."""

    def __init__(self) -> None:
        self._idle: list[KeptJail] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def _forget_parent(self) -> None:
        """In a forked child (the lock held): the idle jails are the parent's."""
        if self._pid != os.getpid():
            self._idle, self._pid = [], os.getpid()
            at_exit(self.clear, ORDER_BEFORE_GRAVEYARD)

    def match(
        self, source: bytes, limits: JailLimits, blank: Callable[[], KeptJail]
    ) -> MatchProcess:
        """A match in the jail kept for this bot's source and limits, or else in a `blank`
        jail (from the warm pool) that is this bot's from now on."""
        key = (hashlib.sha256(source).digest(), limits)
        with self._lock:
            self._forget_parent()
            found = next((each for each in self._idle if each.key == key), None)
            if found:
                self._idle.remove(found)
        if found is not None and not found.alive():
            found.close()
        elif found is not None:
            try:
                match = found.start_match()
            except OSError:  # its server is gone: closed, and a new jail takes its place
                log.info("a kept jail had died; starting a new one", extra=FALLBACK)
            else:
                log.debug(
                    "the bot's kept jail serves its next match: pid %d",
                    match.pid,
                    extra={"jail_event": "reuse"},
                )
                return match
        try:
            return _first_match(blank(), key)
        except OSError:  # the blank jail had died waiting: closed, and a new one
            log.info("a blank kept jail had died; starting a new one", extra=FALLBACK)
        return _first_match(KeptJail(limits), key)

    def give_back(self, jail: KeptJail) -> None:
        if not jail.alive():
            jail.close()
            return
        with self._lock:
            self._idle.append(jail)
            evicted = self._idle[:-MAX_KEPT]
            self._idle = self._idle[-MAX_KEPT:]
        for each in evicted:
            each.close()

    def idle(self) -> list[KeptJail]:
        """The jails waiting for their bot's next match."""
        with self._lock:
            return list(self._idle)

    def clear(self) -> None:
        """Close every idle jail."""
        with self._lock:
            if self._pid != os.getpid():
                return
            idle, self._idle = self._idle, []
        for each in idle:
            each.close()


_kept: KeptJails | None = None


def kept_jails() -> KeptJails:
    global _kept
    if _kept is None:
        _kept = KeptJails()
        at_exit(_kept.clear, ORDER_BEFORE_GRAVEYARD)
    return _kept


class ProcessKind(enum.Enum):
    """How a bot's process is started: chosen once, where the bot is opened
    (`sandbox.process_bot.open_file_bot`), and passed down."""

    KEPT_JAIL = "kept jail"
    """A match forked in the jail kept for the bot, else in a blank kept jail given to it."""
    NEW_JAIL = "new jail"
    """A jail of its own (from the warm pool, else started then)."""
    UNJAILED_SERVER = "unjailed server"
    """A host forked by this process's unjailed server (`sandbox.unjailed`)."""
    UNJAILED_HOST = "unjailed host"
    """A new unjailed host (from the warm pool, else started then)."""

    @property
    def jailed(self) -> bool:
        return self in (ProcessKind.KEPT_JAIL, ProcessKind.NEW_JAIL)


def process_kind(*, jail: bool) -> ProcessKind:
    """The kind of process this machine and `KEPT_VARIABLE` give a bot, jailed or not."""
    if kept_wanted(jail=jail):
        return ProcessKind.KEPT_JAIL if jail else ProcessKind.UNJAILED_SERVER
    return ProcessKind.NEW_JAIL if jail else ProcessKind.UNJAILED_HOST


def kept_wanted(*, jail: bool) -> bool:
    """True if bots are to be forked by a server, as they are unless `KEPT_VARIABLE` is 0:
    jailed bots by a kept jail where cgroups allow it, unjailed bots by the unjailed server
    (`sandbox.unjailed`) anywhere."""
    return os.environ.get(KEPT_VARIABLE) != "0" and (not jail or hierarchy() is not None)
