"""Bot groups in cgroup v1: the memory, pids and freezer hierarchies.

Each bot gets a group of the same name under the runner's own group in each
of the three hierarchies, so its memory still counts towards the worker's.
A v1 frozen process cannot die, not even of the SIGKILL that bwrap's
``--die-with-parent`` sends when its runner dies: `reap_orphans` thaws and
kills what a dead runner left frozen.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterable
from pathlib import Path

from sandbox.cgroups.base import BotCgroup, Hierarchy, group_name, log, read_count, read_pids

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "freezer")


class NoV1Error(OSError):
    """This machine offers no usable v1 memory, pids and freezer controllers."""


def _mounted() -> set[str]:
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


class V1Group(BotCgroup):
    """One bot's groups in the memory, pids and freezer hierarchies."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self._paths = paths
        self._freezer_state = os.open(paths["freezer"] / "freezer.state", os.O_WRONLY)
        self._pids_current = os.open(paths["pids"] / "pids.current", os.O_RDONLY)

    def limit(self, *, memory_bytes: int, processes: int) -> None:
        self._write("memory", "memory.limit_in_bytes", memory_bytes)
        self._write("pids", "pids.max", processes)

    def adopt(self, pids: Iterable[int]) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                for controller in CONTROLLERS:
                    self._write(controller, "cgroup.procs", pid)

    def freeze(self) -> None:
        os.pwrite(self._freezer_state, b"FROZEN", 0)

    def thaw(self) -> None:
        os.pwrite(self._freezer_state, b"THAWED", 0)

    def processes(self) -> list[int]:
        return read_pids(self._paths["freezer"] / "cgroup.procs")

    def tasks(self) -> int:
        return read_count(self._pids_current)

    def out_of_memory(self) -> bool:
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

    def child(self, name: str) -> V1Group:
        """A new group inside this one, in each hierarchy."""
        paths = {controller: path / name for controller, path in self._paths.items()}
        for path in paths.values():
            path.mkdir()
        return V1Group(paths)

    def children(self) -> list[BotCgroup]:
        names = [path.name for path in self._paths["freezer"].iterdir() if path.is_dir()]
        return [
            V1Group({controller: path / name for controller, path in self._paths.items()})
            for name in names
        ]

    def directories(self) -> Iterable[Path]:
        return self._paths.values()

    def release(self) -> None:
        for fd in (self._freezer_state, self._pids_current):
            if fd >= 0:
                os.close(fd)
        self._freezer_state = self._pids_current = -1

    def _write(self, controller: str, name: str, value: object) -> None:
        (self._paths[controller] / name).write_text(str(value))


class V1Hierarchy(Hierarchy):
    """Groups under this thread's own group in each of the three v1 hierarchies."""

    version = "v1"
    limits = ("memory", "pids")

    def __init__(self) -> None:
        """Check the controllers are there and a group can be made; raise `NoV1Error` if not."""
        if os.geteuid() != 0:
            raise NoV1Error("the runner is not root")
        if _mounted() != set(CONTROLLERS):
            raise NoV1Error("no memory, pids and freezer controllers at /sys/fs/cgroup")
        self.create().remove()

    def create(self) -> V1Group:
        name = group_name()
        paths = {controller: _own_group(controller) / name for controller in CONTROLLERS}
        for path in paths.values():
            path.mkdir()
        return V1Group(paths)

    def where(self) -> str:
        return ", ".join(str(_own_group(controller)) for controller in CONTROLLERS)

    def reap(self, doomed: Callable[[str], bool]) -> int:
        orphans: dict[str, dict[str, Path]] = {}
        for controller in CONTROLLERS:
            for path in _own_group(controller).glob("tavolo-*-*"):
                if doomed(path.name):
                    orphans.setdefault(path.name, {})[controller] = path
        for paths in orphans.values():
            if "freezer" in paths:
                with contextlib.suppress(OSError):  # another runner reaped it meanwhile
                    V1Group(paths).remove()
            else:  # its processes are gone with the freezer group: only empty folders remain
                for path in paths.values():
                    with contextlib.suppress(OSError):
                        path.rmdir()
        if orphans:
            log.warning(
                "removed the cgroups of %d bots whose runner had died",
                len(orphans),
                extra={"jail_event": "orphans_reaped"},
            )
        return len(orphans)
