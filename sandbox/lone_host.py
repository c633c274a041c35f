"""The cheap way to pause a jailed bot that is one single-threaded process: SIGSTOP.

Most bots never start a thread or a process: their group holds bwrap's two
processes and the host, one task each (`ALONE`, read from ``pids.current``).
Such a bot is paused with SIGSTOP to the host alone, through a pidfd (a
number reused by another process is never signalled). No fork of the host's
may be under way unseen: either its state in /proc read ``S`` (asleep in a
system call) just before the signal, or `stop` waits until it reads stopped,
by when a fork it had under way is finished and counted; reading the count
once more then tells whether the host is still alone. If not, the caller
freezes the group as for any bot with more than one task. A bot cannot
undo the stop: SIGSTOP cannot be caught, and the seccomp filter denies
every way of sending SIGCONT.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

ALONE = 3
"""Tasks in the group of a bot that is one single-threaded process: bwrap, its
namespace child and the host."""
YIELD_SECONDS = 0.002
"""How long `stop` hands the CPU over to let the host stop, before it polls more slowly."""
POLL_SECONDS = 0.001
STATE_BYTES = 512


class LoneHost:
    """The host process of a jail whose group held no other task when it was found."""

    def __init__(self, pid: int) -> None:
        """Raises ProcessLookupError if `pid` is gone (the caller checks it is the host)."""
        self._pidfd = os.pidfd_open(pid)
        try:
            self._stat = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
        except FileNotFoundError:
            os.close(self._pidfd)
            raise ProcessLookupError(pid) from None

    def stop(self, deadline: float) -> bool:
        """SIGSTOP the host; False if it is gone or never stopped.

        A host asleep in a system call just before the signal (its state ``S``:
        waiting for its next observation, as a rule) had no fork under way, and
        wakes only to stop; any other is waited for until its state reads stopped.
        """
        asleep = self._state() == b"S"
        try:
            signal.pidfd_send_signal(self._pidfd, signal.SIGSTOP)
        except ProcessLookupError:
            return False
        if asleep:
            return True
        spin_until = time.monotonic() + YIELD_SECONDS
        while (state := self._state()) not in (b"T", b"t"):
            if state is None:
                return False
            now = time.monotonic()
            if now > deadline:
                return False
            if now < spin_until:
                os.sched_yield()  # it shares this CPU: let it run to its stop
            else:
                time.sleep(POLL_SECONDS)
        return True

    def resume(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(self._pidfd, signal.SIGCONT)

    def close(self) -> None:
        os.close(self._pidfd)
        os.close(self._stat)

    def _state(self) -> bytes | None:
        """The host's state letter in /proc (``T`` once stopped), None once it is gone."""
        try:
            return os.pread(self._stat, STATE_BYTES, 0).rpartition(b")")[2].split()[0]
        except (OSError, IndexError):
            return None
