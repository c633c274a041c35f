"""Bot groups in cgroup v2, under a subtree delegated to the runner.

The parent is `TAVOLO_CGROUP_ROOT` if set, else the runner's own group from
``/proc/self/cgroup`` (the parent of that group if it is the `RUNNER_LEAF`
an earlier runner moved into). It must be writable: root on a machine whose
cgroup file system is writable, or any user given the group by systemd's
``Delegate=yes``.

v2 lets no group with processes of its own hand controllers to its children
(the root excepted), so before enabling ``+memory +pids`` in the parent's
``cgroup.subtree_control`` the processes in the parent move into the leaf
`RUNNER_LEAF`. A controller the parent is not offered (on a hybrid machine
they may all be bound to v1) is left out: its limit is rlimits' alone.
Freezing (``cgroup.freeze``, Linux 5.2) and killing (``cgroup.kill``,
Linux 5.14; else SIGKILL to each member) need no controller.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from sandbox.cgroups.base import (
    LIMITS,
    BotCgroup,
    Hierarchy,
    group_name,
    log,
    read_count,
    read_pids,
)

ROOT_VARIABLE = "TAVOLO_CGROUP_ROOT"
RUNNER_LEAF = "runner"
FREEZE_SECONDS = 1.0
"""How long `freeze` waits for ``cgroup.events`` to say ``frozen 1``."""
FREEZE_SPIN_SECONDS = 0.0002
FREEZE_CHECK_MILLISECONDS = 1


class NoV2Error(OSError):
    """This machine gives the runner no writable cgroup v2 subtree."""


def mount_point() -> Path:
    """Where the cgroup v2 hierarchy is mounted (``/sys/fs/cgroup/unified`` on hybrid machines)."""
    with open("/proc/self/mounts") as mounts:
        for line in mounts:
            _, target, kind, *_ = line.split()
            if kind == "cgroup2":
                return Path(target)
    raise NoV2Error("no cgroup2 file system is mounted")


def own_group(mount: Path) -> Path:
    """The directory of this process's v2 group."""
    with open("/proc/self/cgroup") as groups:
        for line in groups:
            if line.startswith("0::"):
                return mount / line.rstrip("\n")[3:].lstrip("/")
    raise NoV2Error("this process is in no cgroup v2 group")


def default_root() -> Path:
    """`TAVOLO_CGROUP_ROOT`, else the runner's own group (or its parent, seen from its leaf)."""
    configured = os.environ.get(ROOT_VARIABLE)
    if configured:
        return Path(configured)
    own = own_group(mount_point())
    return own.parent if own.name == RUNNER_LEAF else own


def _is_hierarchy_root(path: Path) -> bool:
    """The top group has no ``cgroup.type`` and may hold processes beside enabled controllers."""
    return not (path / "cgroup.type").exists()


def _write(path: Path, value: object) -> None:
    """Write to an existing cgroup file; FileNotFoundError if the kernel does not offer it."""
    fd = os.open(path, os.O_WRONLY)  # no O_CREAT: a missing file must not read as EACCES
    try:
        os.write(fd, str(value).encode())
    finally:
        os.close(fd)


def _move(pids: Iterable[int], group: Path) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # it exited meanwhile
            _write(group / "cgroup.procs", pid)


class V2Group(BotCgroup):
    """One bot's v2 group."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._freeze = os.open(path / "cgroup.freeze", os.O_WRONLY)
        self._events = os.open(path / "cgroup.events", os.O_RDONLY)
        try:  # present where the pids controller is enabled
            self._pids_current: int | None = os.open(path / "pids.current", os.O_RDONLY)
        except FileNotFoundError:
            self._pids_current = None

    def limit(self, *, memory_bytes: int, processes: int) -> None:
        """Write the limits whose files exist: each is absent where its controller is."""
        settings = (("memory.max", memory_bytes), ("memory.swap.max", 0), ("pids.max", processes))
        for name, value in settings:
            with contextlib.suppress(FileNotFoundError):
                _write(self.path / name, value)

    def adopt(self, pids: Iterable[int]) -> None:
        _move(pids, self.path)

    def freeze(self) -> None:
        """Ask for the freeze and wait until every member has stopped."""
        os.pwrite(self._freeze, b"1", 0)
        deadline = time.monotonic() + FREEZE_SECONDS
        waiter = select.poll()
        waiter.register(self._events, select.POLLPRI)
        # Usually frozen as the write returns, or within microseconds of yielding the CPU to the
        # bot's last running thread. Else the poll wakes on the change, but the kernel delays
        # change events to one per 10 ms, so the file is read again every millisecond too.
        spin_until = time.monotonic() + FREEZE_SPIN_SECONDS
        while b"frozen 1" not in os.pread(self._events, 128, 0):
            now = time.monotonic()
            if now < spin_until:
                os.sched_yield()
            elif now < deadline:
                waiter.poll(FREEZE_CHECK_MILLISECONDS)
            else:
                log.warning("cgroup %s not frozen after %.1f s", self.path, FREEZE_SECONDS)
                return

    def thaw(self) -> None:
        os.pwrite(self._freeze, b"0", 0)

    def kill(self) -> None:
        try:
            _write(self.path / "cgroup.kill", 1)
        except FileNotFoundError:  # before Linux 5.14
            self.kill_each()

    def kill_each(self) -> None:
        """Kill without ``cgroup.kill``: freeze (no more forks), SIGKILL each member, thaw."""
        self.freeze()
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.thaw()

    def processes(self) -> list[int]:
        return read_pids(self.path / "cgroup.procs")

    def tasks(self) -> int | None:
        return None if self._pids_current is None else read_count(self._pids_current)

    def out_of_memory(self) -> bool:
        try:
            text = (self.path / "memory.events").read_text()
        except FileNotFoundError:
            return False
        counts = dict(line.split() for line in text.splitlines())
        return int(counts.get("oom_kill", 0)) > 0

    def child(self, name: str) -> V2Group:
        """A new group inside this one, offered the limits this one has (which therefore
        holds no process of its own: a kept jail's server sits in a child too)."""
        offered = set((self.path / "cgroup.controllers").read_text().split())
        enabled = set((self.path / "cgroup.subtree_control").read_text().split())
        wanted = [name for name in LIMITS if name in offered and name not in enabled]
        if wanted:
            _write(self.path / "cgroup.subtree_control", " ".join(f"+{each}" for each in wanted))
        (self.path / name).mkdir()
        return V2Group(self.path / name)

    def children(self) -> list[BotCgroup]:
        return [V2Group(path) for path in self.path.iterdir() if path.is_dir()]

    def directories(self) -> Iterable[Path]:
        return (self.path,)

    def release(self) -> None:
        for fd in (self._freeze, self._events, self._pids_current):
            if fd is not None and fd >= 0:
                os.close(fd)
        self._freeze = self._events = -1
        self._pids_current = None


class V2Hierarchy(Hierarchy):
    """Bot groups as children of one writable v2 group, `root`."""

    version = "v2"

    def __init__(self, root: Path) -> None:
        """Enable what controllers `root` offers and check a group can be made there.

        Raises `NoV2Error` (or another `OSError`) if `root` is unusable.
        """
        self.root = root
        if not (root / "cgroup.procs").is_file():
            raise NoV2Error(f"{root} is not a cgroup v2 group")
        if not os.access(root, os.W_OK) or not os.access(root / "cgroup.procs", os.W_OK):
            raise NoV2Error(f"{root} is not writable (delegate it to the runner)")
        self.limits = self._enable_limits()
        self.create().remove()

    def _enable_limits(self) -> tuple[str, ...]:
        """Turn on the controllers of `LIMITS` that the root is offered; return those on."""
        offered = set((self.root / "cgroup.controllers").read_text().split())
        enabled = set((self.root / "cgroup.subtree_control").read_text().split())
        wanted = [name for name in LIMITS if name in offered and name not in enabled]
        if wanted:
            try:
                if not _is_hierarchy_root(self.root):
                    self._vacate()
                change = " ".join(f"+{name}" for name in wanted)
                _write(self.root / "cgroup.subtree_control", change)
            except OSError as error:
                log.warning("cannot enable %s in %s: %s", ", ".join(wanted), self.root, error)
            enabled = set((self.root / "cgroup.subtree_control").read_text().split())
        return tuple(name for name in LIMITS if name in enabled)

    def _vacate(self) -> None:
        """Move the root's own processes (this runner's) into its leaf `RUNNER_LEAF`."""
        members = read_pids(self.root / "cgroup.procs")
        if members:
            leaf = self.root / RUNNER_LEAF
            leaf.mkdir(exist_ok=True)
            _move(members, leaf)

    def create(self) -> V2Group:
        path = self.root / group_name()
        path.mkdir()
        try:
            return V2Group(path)
        except OSError:
            path.rmdir()
            raise

    def where(self) -> str:
        return str(self.root)

    def reap(self, doomed: Callable[[str], bool]) -> int:
        """Kill and delete the groups `doomed` picks (those of dead runners).

        A v2 frozen process still dies of SIGKILL, so `--die-with-parent` has
        usually killed them: mostly their empty directories remain.
        """
        orphans = [path for path in self.root.glob("tavolo-*-*") if doomed(path.name)]
        for path in orphans:
            with contextlib.suppress(OSError):
                V2Group(path).remove()
        if orphans:
            log.warning(
                "removed the cgroups of %d bots whose runner had died",
                len(orphans),
                extra={"jail_event": "orphans_reaped"},
            )
        return len(orphans)
