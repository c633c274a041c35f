"""A cgroup (v1) per bot: memory and process limits, and a freezer to pause it.

Each bot gets a group named ``tavolo-<pid>-<token>-<n>`` under the runner's own group
in the memory, pids and freezer hierarchies, so its memory still counts
towards the worker's. To start the jail inside the group without a race, the
spawning thread joins the group (v1 lets one thread move alone through the
``tasks`` file), forks, and returns to where it was.

Where the host offers no writable v1 controllers (not root, or cgroup v2
only) `cgroups_usable` is False, one warning is logged, and the jail relies
on rlimits alone.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import os
import re
import secrets
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "freezer")
REMOVE_SECONDS = 2.0
"""How long `remove` waits for the last process to leave before giving up."""

log = logging.getLogger(__name__)
_numbers = itertools.count()
_token = secrets.token_hex(4)
GROUP_NAME = re.compile(r"tavolo-(\d+)-[0-9a-f]+-\d+")
"""A bot's group: ``tavolo-<runner pid>-<token of that process>-<number>``.

The token keeps a new runner that happens to get a dead runner's pid from
clashing with the dead one's leftover groups."""


def _v1_mounts() -> set[str]:
    """The v1 controllers mounted at /sys/fs/cgroup/<controller>."""
    found = set()
    with open("/proc/self/mounts") as mounts:
        for line in mounts:
            _, target, kind, options, *_ = line.split()
            if kind == "cgroup" and Path(target).parent == CGROUP_ROOT:
                found.update(set(options.split(",")) & set(CONTROLLERS))
    return found


def _own_group(controller: str) -> Path:
    """The directory of this thread's group in `controller`'s hierarchy."""
    with open("/proc/thread-self/cgroup") as groups:
        for line in groups:
            _, names, path = line.rstrip("\n").split(":", 2)
            if controller in names.split(","):
                return CGROUP_ROOT / controller / path.lstrip("/")
    raise LookupError(f"this thread is in no {controller} cgroup")


@functools.cache
def cgroups_usable() -> bool:
    """True if memory, pids and freezer v1 groups can be made here; warns once if not."""
    reason = None
    if os.geteuid() != 0:
        reason = "the runner is not root"
    elif _v1_mounts() != set(CONTROLLERS):
        reason = "no cgroup v1 memory, pids and freezer controllers at /sys/fs/cgroup"
    else:
        try:
            BotCgroup.create().remove()
            reap_orphans()
        except OSError as error:
            reason = f"cannot make a cgroup ({error})"
    if reason:
        log.warning("bot jails run without cgroup limits (rlimits alone): %s", reason)
        return False
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def reap_orphans() -> int:
    """Kill the jails of runners that died, and delete their groups; return how many.

    A jail frozen between turns cannot die while frozen, not even of the
    SIGKILL that `--die-with-parent` sends when its runner dies: it waits here
    for the next runner on the machine to thaw and kill it.
    """
    orphans: dict[str, dict[str, Path]] = {}
    for controller in CONTROLLERS:
        for path in _own_group(controller).glob("tavolo-*-*"):
            owner = GROUP_NAME.fullmatch(path.name)
            if owner and not _alive(int(owner[1])):
                orphans.setdefault(path.name, {})[controller] = path
    for paths in orphans.values():
        if "freezer" in paths:
            BotCgroup(paths).remove()
        else:  # its processes are gone with the freezer group: only empty folders remain
            for path in paths.values():
                with contextlib.suppress(OSError):
                    path.rmdir()
    if orphans:
        log.warning("removed the cgroups of %d bots whose runner had died", len(orphans))
    return len(orphans)


class BotCgroup:
    """One bot's groups in the memory, pids and freezer hierarchies."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self._paths = paths
        self._freezer_state = os.open(paths["freezer"] / "freezer.state", os.O_WRONLY)

    @classmethod
    def create(cls) -> BotCgroup:
        """New groups named after this runner's pid, under this thread's own groups."""
        name = f"tavolo-{os.getpid()}-{_token}-{next(_numbers)}"
        paths = {controller: _own_group(controller) / name for controller in CONTROLLERS}
        for path in paths.values():
            path.mkdir()
        return cls(paths)

    def limit(self, *, memory_bytes: int, processes: int) -> None:
        self._write("memory", "memory.limit_in_bytes", memory_bytes)
        self._write("pids", "pids.max", processes)

    @contextlib.contextmanager
    def joined_by_this_thread(self) -> Iterator[None]:
        """Move the calling thread into the group for the block: what it forks starts there."""
        thread = str(threading.get_native_id())
        homes = {c: _own_group(c) for c in CONTROLLERS}
        try:
            for controller in CONTROLLERS:
                self._write(controller, "tasks", thread)
            yield
        finally:
            for home in homes.values():
                (home / "tasks").write_text(thread)

    def freeze(self) -> None:
        os.pwrite(self._freezer_state, b"FROZEN", 0)

    def thaw(self) -> None:
        os.pwrite(self._freezer_state, b"THAWED", 0)

    def processes(self) -> list[int]:
        text = (self._paths["freezer"] / "cgroup.procs").read_text()
        return [int(pid) for pid in text.split()]

    def out_of_memory(self) -> bool:
        """True if the kernel killed a member for reaching the memory limit."""
        if "memory" not in self._paths:
            return False
        for line in (self._paths["memory"] / "memory.oom_control").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value) > 0
        return False

    def kill(self) -> None:
        """Freeze the group (no more forks), SIGKILL every member, thaw so they die."""
        self.freeze()
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.thaw()

    def remove(self) -> None:
        """Kill what is left and delete the groups; waits up to `REMOVE_SECONDS` for stragglers."""
        deadline = time.monotonic() + REMOVE_SECONDS
        while self.processes() and time.monotonic() < deadline:
            self.kill()
            time.sleep(0.005)
        os.close(self._freezer_state)
        for path in self._paths.values():
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

    def _write(self, controller: str, name: str, value: object) -> None:
        (self._paths[controller] / name).write_text(str(value))
