"""What the jail asks of a bot's cgroup, whichever cgroup version provides it.

A `Hierarchy` (cgroup v1 or v2) makes one `BotCgroup` per jail and reaps the
groups of runners that died. Groups are named
``tavolo-<runner pid>-<token>-<n>``; the token keeps a new runner that happens
to get a dead runner's pid from clashing with the dead one's leftover groups.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from pathlib import Path

REMOVE_SECONDS = 2.0
"""How long `remove` waits for the last process to leave before giving up."""
GROUP_NAME = re.compile(r"tavolo-(\d+)-[0-9a-f]+-\d+")
COUNT_BYTES = 32
LIMITS = ("memory", "pids")
"""The limits a cgroup may enforce: `memory_bytes` and `processes`."""

log = logging.getLogger("sandbox.cgroups")
_numbers = itertools.count()
_token = secrets.token_hex(4)


def runner_name() -> str:
    """This runner's part of its groups' names: its pid and the token."""
    return f"{os.getpid()}-{_token}"


def group_name() -> str:
    """A new bot group's name, unique on this machine."""
    return f"tavolo-{runner_name()}-{next(_numbers)}"


def made_by(runner: str) -> Callable[[str], bool]:
    """Whether a group's name says the runner `runner` (a `runner_name`) made it."""
    return lambda name: name.startswith(f"tavolo-{runner}-")


def read_pids(path: Path) -> list[int]:
    """The pids in a ``cgroup.procs`` file, opened afresh: a descriptor kept open and read
    again from its start goes on returning the list of its first reading."""
    return [int(pid) for pid in path.read_text().split()]


def read_count(fd: int) -> int:
    """The number in an open single-value file such as ``pids.current``, read afresh."""
    return int(os.pread(fd, COUNT_BYTES, 0))


def orphaned(name: str) -> bool:
    """True if `name` is a bot group whose runner is no longer alive."""
    owner = GROUP_NAME.fullmatch(name)
    if owner is None:
        return False
    try:
        os.kill(int(owner[1]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    return False


class BotCgroup(ABC):
    """One bot's group: limits, the processes put in it, pausing, killing, removal."""

    @abstractmethod
    def limit(self, *, memory_bytes: int, processes: int) -> None:
        """Set the limits the hierarchy offers; the others are left to rlimits."""

    @abstractmethod
    def adopt(self, pids: Iterable[int]) -> None:
        """Move these processes into the group; what they fork afterwards starts there."""

    @abstractmethod
    def freeze(self) -> None:
        """Stop every process in the group at once."""

    @abstractmethod
    def thaw(self) -> None:
        """Let the frozen processes run again."""

    @abstractmethod
    def kill(self) -> None:
        """SIGKILL every process in the group, including those forked meanwhile."""

    @abstractmethod
    def processes(self) -> list[int]:
        """The pids in the group."""

    @abstractmethod
    def tasks(self) -> int | None:
        """How many tasks (threads of every process) are in the group, or None where the
        hierarchy cannot tell cheaply (no pids controller)."""

    @abstractmethod
    def out_of_memory(self) -> bool:
        """True if the kernel killed a member for reaching the memory limit."""

    @abstractmethod
    def directories(self) -> Iterable[Path]:
        """The group's directories, deleted by `remove`."""

    @abstractmethod
    def release(self) -> None:
        """Close the files the group holds open, before its directories go; a second call
        does nothing (a closed number may already name another file)."""

    @abstractmethod
    def child(self, name: str) -> BotCgroup:
        """A new group inside this one (a kept jail's server and its matches)."""

    @abstractmethod
    def children(self) -> list[BotCgroup]:
        """The groups inside this one."""

    def remove(self) -> None:
        """Kill what is left and delete the group, the groups inside it first; waits up to
        `REMOVE_SECONDS` for stragglers.

        A group that another runner's reaper deleted meanwhile is simply gone.
        """
        try:
            inner = self.children()
        except FileNotFoundError:
            inner = []
        for each in inner:
            each.remove()
        deadline = time.monotonic() + REMOVE_SECONDS
        try:
            while self.processes() and time.monotonic() < deadline:
                self.kill()
                time.sleep(0.005)
        except FileNotFoundError:
            pass
        finally:
            self.release()
        for path in self.directories():
            while True:
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        log.warning("cgroup %s still busy; left in place", path)
                        break
                    time.sleep(0.01)


class Hierarchy(ABC):
    """A cgroup version as this machine offers it to the runner."""

    version: str
    limits: tuple[str, ...]
    """Which of `LIMITS` its groups enforce."""

    @abstractmethod
    def create(self) -> BotCgroup:
        """A new, empty bot group."""

    @abstractmethod
    def reap(self, doomed: Callable[[str], bool]) -> int:
        """Kill and delete the bot groups whose names `doomed` picks; return how many.

        Groups that vanish meanwhile (another runner reaping too) are skipped.
        """

    def reap_orphans(self) -> int:
        """Kill and delete the groups of runners that died; return how many."""
        return self.reap(orphaned)

    @abstractmethod
    def where(self) -> str:
        """Where the bot groups are made, for the start-up line."""

    def describe(self) -> str:
        """The start-up line: which cgroups, where, and the limits left to rlimits."""
        text = f"bot jails use cgroup {self.version} at {self.where()}"
        missing = [name for name in LIMITS if name not in self.limits]
        if missing:
            text += (
                f"; no {' or '.join(missing)} controller there, "
                "so those limits come from rlimits alone"
            )
        return text
