"""Start the host inside bubblewrap, under the policy of `sandbox.policy`.

`JailedProcess` starts one jail: bwrap as the unprivileged bot account,
with an empty environment, fresh descriptors for the seccomp filter and the
host script, and (where the host allows it) inside a new cgroup that lists
every process of the bot, to pause, resume and kill them all.

Pausing stops every process of the bot between its turns. A bot that is one
single-threaded process (most are) gets SIGSTOP (`sandbox.lone_host`): a
few microseconds. Any other is frozen with its cgroup, which stops a group
of any shape at once but costs about a hundred (docs/sandbox.md).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import signal
import time

from sandbox import policy, wire
from sandbox.botuser import jail_account, start_as
from sandbox.cgroups import BotCgroup, graveyard, hierarchy
from sandbox.channel import LineChannel
from sandbox.limits import KIB, JailLimits
from sandbox.lone_host import ALONE, GroupPause
from sandbox.processes import HOST_FILE, BotProcess
from sandbox.readiness import readable
from sandbox.seccomp import filter_program, memory_fd
from sandbox.warden import watch_runner

log = logging.getLogger(__name__)

PROBE_SECONDS = 20.0
BWRAP_SIGNAL_BASE = 128
"""bwrap exits with 128 + n when the jailed command died of signal n."""


class StartGate:
    """bwrap held at its start (``--block-fd``) until the runner has put it in a cgroup."""

    def __init__(self) -> None:
        self._block, self._release = os.pipe2(os.O_CLOEXEC)
        self._info, self._info_end = os.pipe2(os.O_CLOEXEC)

    @property
    def flags(self) -> list[str]:
        return ["--block-fd", str(self._block), "--info-fd", str(self._info_end)]

    @property
    def fds(self) -> tuple[int, int]:
        """bwrap's ends, to pass to it."""
        return self._block, self._info_end

    def let_in(self, cgroup: BotCgroup, pid: int, deadline: float) -> int | None:
        """Move bwrap (`pid`) and its namespace child into `cgroup`, then let bwrap go on;
        return the child's pid (None if bwrap ended first)."""
        for fd in self.fds:
            os.close(fd)
        self._block = self._info_end = -1
        child = self._child_pid(deadline)
        cgroup.adopt([pid] if child is None else [pid, child])
        os.write(self._release, b"go")
        return child

    def _child_pid(self, deadline: float) -> int | None:
        """The child's pid from bwrap's JSON on ``--info-fd``; None if bwrap ended first."""
        text = b""
        while readable(self._info, deadline - time.monotonic()):
            chunk = os.read(self._info, 4096)
            if not chunk:
                with contextlib.suppress(ValueError, KeyError):
                    return int(json.loads(text)["child-pid"])
                return None
            text += chunk
        return None

    def close(self) -> None:
        for fd in (self._block, self._release, self._info, self._info_end):
            if fd >= 0:
                os.close(fd)


class JailUnavailableError(RuntimeError):
    """A jail was asked for but this machine cannot build one."""


class JailedProcess(BotProcess):
    """The host running in a fresh bubblewrap jail."""

    def __init__(self, limits: JailLimits) -> None:
        self.limits = limits
        account = jail_account()
        cgroups = hierarchy()
        if cgroups:
            watch_runner()  # a killed runner's groups go at once, not at the next runner's start
        self.cgroup: BotCgroup | None = cgroups.create() if cgroups else None
        self._wrappers: set[int] = set()
        """bwrap and its namespace child (the reaper, pid 1 inside)."""
        self._pausing = GroupPause(self.cgroup, ALONE, self._bot_pid) if self.cgroup else None
        gate = StartGate() if self.cgroup else None
        # paused by SIGSTOP, a bot may not make the process groups that SIGCONT wakes
        seccomp_fd = memory_fd("tavolo-seccomp", filter_program(sessions=self.cgroup is not None))
        host_fd = memory_fd("tavolo-host", HOST_FILE.read_bytes())
        argv = policy.bwrap_argv(limits, seccomp_fd=seccomp_fd, host_fd=host_fd)
        if gate:
            argv[1:1] = gate.flags
        switch, as_account = start_as(account)
        try:
            if self.cgroup:
                # The bwrap processes and the pid-1 reaper count as well as the bot's own.
                self.cgroup.limit(memory_bytes=limits.memory_bytes, processes=limits.processes + 2)
            super().__init__(
                [*switch, *argv],
                pass_fds=(seccomp_fd, host_fd, *(gate.fds if gate else ())),
                **as_account,
            )
            if self.cgroup and gate:
                self._let_in(gate, time.monotonic() + limits.startup_seconds)
            log.debug(
                "jail started: pid %d, %s",
                self.pid,
                "in its own cgroup" if self.cgroup else "without a cgroup",
                extra={"jail_event": "spawn"},
            )
        except BaseException:
            if self.cgroup:
                self.cgroup.remove()
            raise
        finally:
            os.close(seccomp_fd)
            os.close(host_fd)
            if gate:
                gate.close()

    def _let_in(self, gate: StartGate, deadline: float) -> None:
        """Put the held jail in its cgroup and let it start; never let it start outside."""
        assert self.cgroup
        try:
            child = gate.let_in(self.cgroup, self.pid, deadline)
            self._wrappers = {self.pid} if child is None else {self.pid, child}
        except BaseException:
            self.kill()
            self.close_pipes()
            raise

    def pause(self) -> None:
        """Stop every process of the bot: SIGSTOP if it is one task, else the freezer."""
        if self._pausing is None:
            super().pause()
        else:
            self._pausing.pause()

    def broke_pause(self) -> bool:
        """True if the bot, stopped as one task, is one no longer (`sandbox.lone_host`)."""
        return self._pausing is not None and self._pausing.broke_pause()

    def resume(self) -> None:
        if self._pausing is None:
            super().resume()
        else:
            self._pausing.resume()

    def _bot_pid(self) -> int | None:
        """The one process in the group that is not bwrap's."""
        assert self.cgroup
        bots = [pid for pid in self.cgroup.processes() if pid not in self._wrappers]
        return bots[0] if len(bots) == 1 else None

    def kill(self) -> None:
        """Kill bwrap (its pid namespace dies with it) and anything left in the cgroup."""
        log.debug("jail killed: pid %d", self.pid, extra={"jail_event": "end"})
        if self._pausing is not None:
            self._pausing.close()
        if self.cgroup:
            self.cgroup.kill()
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self.popen.wait()
            graveyard.bury(self.cgroup)  # deleted once empty: its processes are dying
            self.cgroup = None
        else:
            super().kill()

    def exit_code(self) -> int | None:
        code = super().exit_code()
        if code is not None and code > BWRAP_SIGNAL_BASE:
            return BWRAP_SIGNAL_BASE - code
        return code

    def limit_note(self) -> str:
        if self.cgroup and self.cgroup.out_of_memory():
            return " (memory limit reached)"
        return ""


@functools.cache
def jail_problem() -> str | None:
    """Why no jail can be built here, or None once a probe jail has loaded a bot."""
    for path in (policy.BWRAP, policy.PYTHON):
        if not os.access(path, os.X_OK):
            return f"{path} is missing"
    try:
        probe = JailedProcess(JailLimits())
    except (OSError, LookupError) as error:
        return f"cannot start bwrap: {error}"
    channel = LineChannel(
        protocol=probe.protocol,
        stderr=probe.stderr,
        line_bytes=KIB,
        log_bytes=4 * KIB,
    )
    try:
        deadline = time.monotonic() + PROBE_SECONDS
        load = wire.load_line(b"def act(observation):\n    return {}\n", "/bot/probe.py", {})
        line = channel.read_line(deadline) if channel.send(load, deadline) else None
        if isinstance(line, bytes) and wire.parse_ready(line) is None:
            return None
        channel.drain_log()
        said = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        problem = f"a probe jail did not start: {channel.log.last_line() or said}"
        log.warning("%s", problem, extra={"jail_event": "probe_failed"})
        return problem
    finally:
        probe.kill()
        probe.close_pipes()


def jail_available() -> bool:
    """True if bubblewrap is installed and a jail can be built on this machine."""
    return jail_problem() is None


def require_jail() -> None:
    """Raise `JailUnavailableError` with the reason if no jail can be built."""
    problem = jail_problem()
    if problem is not None:
        raise JailUnavailableError(f"no bot jail on this machine: {problem}")
