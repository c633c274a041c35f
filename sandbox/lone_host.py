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
