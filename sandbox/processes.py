"""A started bot process, and how to start one without a jail.

`BotProcess` owns the child and the runner's end of its protocol socket and
stderr pipe; it pauses, resumes and kills the child's whole tree with signals.

The protocol socket is not inherited: the child's stdin is a control socket
over which the runner sends the protocol socket (SCM_RIGHTS) once the child
runs. So only the host and what it forks ever hold the other end, and the
runner sees end-of-file as soon as the bot closes it, even while a wrapper
such as bwrap's monitor process, which keeps every descriptor it inherited,
is still alive. `sandbox.jail`
subclasses it for jails, where a freezer cgroup and the pid namespace do
those jobs better. Unjailed, a process that double-forks out of the tree
escapes `kill`: running unjailed is for trusted bots only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sandbox import tree
from sandbox.policy import PYTHON_FLAGS

HOST_FILE = Path(__file__).with_name("host.py")
EXIT_WAIT_SECONDS = 1.0
"""How long to wait for a process whose output closed to report its exit status."""


class BotProcess:
    """A running bot process, the runner's end of its protocol socket, and its stderr."""

    def __init__(self, argv: Sequence[str], **popen_options: Any) -> None:
        protocol, bot_end = socket.socketpair()
        control, child_control = socket.socketpair()
        self.stderr, child_err = os.pipe2(os.O_CLOEXEC)
        try:
            self.popen = subprocess.Popen(
                argv,
                stdin=child_control.fileno(),
                stdout=subprocess.DEVNULL,
                stderr=child_err,
                env={},
                **popen_options,
            )
            socket.send_fds(control, [b"p"], [bot_end.fileno()])
        except BaseException:
            protocol.close()
            os.close(self.stderr)
            raise
        finally:
            for end in (control, child_control, bot_end):
                end.close()
            os.close(child_err)
        self.protocol = protocol.detach()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def pause(self) -> None:
        tree.stop_tree(self.pid)

    def resume(self) -> None:
        tree.continue_tree(self.pid)

    def broke_pause(self) -> bool:
        """True if the last pause may have let a process of the bot's run on."""
        return False

    def kill(self) -> None:
        """End the process and everything it started; idempotent."""
        if self.popen.returncode is None:
            tree.kill_tree(self.pid)
        self.popen.wait()

    def close_pipes(self) -> None:
        """Close the runner's end of the protocol socket and of stderr (after `kill`)."""
        for fd in (self.protocol, self.stderr):
            with contextlib.suppress(OSError):
                os.close(fd)

    def discard(self) -> None:
        """Kill it and close its pipes: a pooled process no bot will use."""
        self.kill()
        self.close_pipes()

    def limit_note(self) -> str:
        """Words on a hard limit the process broke, if the process can tell."""
        return ""

    def exit_code(self) -> int | None:
        """The exit status, waiting briefly; negative for a signal, None if still running."""
        try:
            return self.popen.wait(EXIT_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            return None


class LocalProcess(BotProcess):
    """The host under the runner's own Python, unjailed, in a session of its own."""

    def __init__(self) -> None:
        python = sys.executable or "python3"
        super().__init__([python, *PYTHON_FLAGS, str(HOST_FILE)], start_new_session=True)

    def pause(self) -> None:
        """Stop the session's process group: one signal, where `BotProcess` walks /proc.

        A trusted bot's children stay in its group; an untrusted one belongs in the jail.
        """
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGSTOP)

    def resume(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGCONT)

    def kill(self) -> None:
        """Kill the tree, and whatever else is left in the session's process group."""
        if self.popen.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        super().kill()
