"""The cheap way to pause a jailed bot that is one single-threaded process: SIGSTOP.

Most bots never start a thread or a process: their group holds bwrap's two
processes and the host, one task each (`ALONE`, read from ``pids.current``).
Such a bot is paused with SIGSTOP to the host alone, through a pidfd (a
number reused by another process is never signalled), without waiting: the
host stops before it runs any more of its code. A bot cannot undo the stop:
SIGSTOP cannot be caught, and the seccomp filter denies every way of sending
SIGCONT.

Only a fork already under way when the signal comes can finish, its child
running on. So before the bot's next turn the count is read again
(`sandbox.jail.JailedProcess.broke_pause`): a bot no longer alone started a
process as it was being paused, and is crashed and killed with all it
started. (A bot that starts processes or threads in its turns is counted at
its pause and frozen with its cgroup instead.)
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable

from sandbox.cgroups.base import BotCgroup

ALONE = 3
"""Tasks in the group of a bot that is one single-threaded process: bwrap, its
namespace child and the host."""


class LoneHost:
    """The host process of a jail whose group held no other task when it was found."""

    def __init__(self, pid: int) -> None:
        """Raises ProcessLookupError if `pid` is gone (the caller checks it is the host)."""
        self._pidfd = os.pidfd_open(pid)

    def stop(self) -> bool:
        """SIGSTOP the host; False if it is gone."""
        try:
            signal.pidfd_send_signal(self._pidfd, signal.SIGSTOP)
        except ProcessLookupError:
            return False
        return True

    def resume(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(self._pidfd, signal.SIGCONT)

    def close(self) -> None:
        os.close(self._pidfd)


class GroupPause:
    """Pausing and resuming every process in a bot's group: SIGSTOP to its host while the
    group holds `alone` tasks (the host's and its wrappers'), else the freezer."""

    def __init__(self, cgroup: BotCgroup, alone: int, find_host: Callable[[], int | None]) -> None:
        """`find_host` names the host's pid once the group holds `alone` tasks."""
        self.cgroup = cgroup
        self._alone = alone
        self._find_host = find_host
        self._host: LoneHost | None = None
        self._host_stopped = False
        self._frozen = False

    def pause(self) -> None:
        host = self._lone_host()
        if host is not None:
            if host.stop():
                self._host_stopped = True
                return
            host.close()  # gone: look again next time
            self._host = None
        self.cgroup.freeze()
        self._frozen = True

    def broke_pause(self) -> bool:
        """True if the bot, stopped as one task, is one no longer: it forked as it was
        being stopped, and the child may have run since."""
        return self._host_stopped and self.cgroup.tasks() != self._alone

    def resume(self) -> None:
        if self._frozen:
            self.cgroup.thaw()
            self._frozen = False
        if self._host_stopped and self._host is not None:
            self._host.resume()
        self._host_stopped = False

    def close(self) -> None:
        if self._host is not None:
            self._host.close()
            self._host = None

    def _lone_host(self) -> LoneHost | None:
        """The bot's one process, if its group holds no other task; found when first so."""
        if self.cgroup.tasks() != self._alone:
            return None
        if self._host is None:
            pid = self._find_host()
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    self._host = LoneHost(pid)  # a process cannot leave its group
        return self._host
