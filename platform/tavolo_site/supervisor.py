"""Keeping the standalone site's processes up: each that ends is started again, with backoff.

`tavolo standalone` runs the web server, the worker and the scheduler as
children, each in a session (and process group) of its own. When one ends,
whatever it left in its group (gunicorn's or Celery's pool processes) is
killed, the end is logged, and it is started again after a pause: 1 s at
first, doubled each time it ends again soon after starting, up to 30 s; a
child that ran a minute before it ended starts again after 1 s. So a worker
killed in the middle of a match is back within seconds (its match is played
again once its lease lapses, `matches.lease`), and one that cannot start at
all is tried again, every 30 s at most, without taking the others down.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

FIRST_PAUSE_SECONDS = 1.0
MOST_PAUSE_SECONDS = 30.0
STEADY_SECONDS = 60.0
"""A child that ran this long before it ended is started again after the first pause."""
STOP_GRACE_SECONDS = 10.0
POLL_SECONDS = 0.1


@dataclass
class Child:
    """One supervised process: how to start it, and its current run."""

    name: str
    command: list[str]
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    restart_at: float | None = None
    """When to start it again, while it is not running."""
    pause: float = 0.0
    """How long it waits to start again the next time it ends soon after starting."""


@dataclass
class Supervisor:
    """Starts `children`, and starts again each one that ends (`check`), until `stop`."""

    children: list[Child]
    cwd: Path
    env: dict[str, str]
    first_pause: float = FIRST_PAUSE_SECONDS
    most_pause: float = MOST_PAUSE_SECONDS
    steady: float = STEADY_SECONDS

    def start(self) -> None:
        for child in self.children:
            child.pause = self.first_pause
            self._start(child)

    def check(self) -> None:
        """Reap the children that ended and schedule them again; start those that are due."""
        now = time.monotonic()
        for child in self.children:
            if child.process is not None and _has_ended(child.process):
                self._restart_later(child, child.process, now)
            if child.restart_at is not None and now >= child.restart_at:
                self._start(child)

    def stop(self) -> None:
        """Ask each child to stop (SIGTERM), wait a little, then kill what is left of them."""
        running = {child.name: child.process for child in self.children if child.process}
        for process in running.values():
            if not _has_ended(process):
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        while time.monotonic() < deadline and not all(map(_has_ended, running.values())):
            time.sleep(POLL_SECONDS)
        for name, process in running.items():
            if not _has_ended(process):
                logger.warning("the %s did not stop in time: killing it", name)
            _group_kill(process)
            process.wait()

    def _start(self, child: Child) -> None:
        child.restart_at = None
        child.started_at = time.monotonic()
        try:
            child.process = subprocess.Popen(
                child.command, cwd=self.cwd, env=self.env, start_new_session=True
            )
        except OSError as error:
            child.process = None
            pause = self._schedule(child, time.monotonic(), ran=0.0)
            logger.error(
                "could not start the %s (%s): trying again in %g s", child.name, error, pause
            )

    def _restart_later(self, child: Child, process: subprocess.Popen[bytes], now: float) -> None:
        """Kill what the child left in its group, reap it, log it, and schedule its restart."""
        _group_kill(process)  # before reaping, while the group's number is still its own
        code = process.wait()
        child.process = None
        ran = now - child.started_at
        pause = self._schedule(child, now, ran=ran)
        logger.error(
            "the %s ended (%s) after %.0f s: starting it again in %g s",
            child.name,
            _exit_text(code),
            ran,
            pause,
        )

    def _schedule(self, child: Child, now: float, *, ran: float) -> float:
        """Start `child` again after its pause, and double the next one; the pause."""
        if ran >= self.steady:
            child.pause = self.first_pause
        pause, child.pause = child.pause, min(child.pause * 2, self.most_pause)
        child.restart_at = now + pause
        return pause


def _has_ended(process: subprocess.Popen[bytes]) -> bool:
    """True once the process has ended, without reaping it (its group is killed first)."""
    if process.returncode is not None:
        return True
    flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
    try:
        return os.waitid(os.P_PID, process.pid, flags) is not None
    except ChildProcessError:
        return True


def _group_kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the process's group: itself and what it started (not yet reaped, so still its)."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


def _exit_text(code: int) -> str:
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit {code}"
