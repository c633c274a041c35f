"""The unjailed server (``host.py --serve``): forks a fresh host for every unjailed bot.

Without the jail (`open_file_bot(jail=False)`: your own bots on your own
machine), a bot's host is forked by one server per process instead of
started as a new Python, unless ``TAVOLO_KEPT_JAILS=0`` (`sandbox.kept.kept_wanted`).
The server is started when first needed and again when it died.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading

from sandbox import policy, tree
from sandbox.exits import ORDER_BEFORE_GRAVEYARD, at_exit
from sandbox.forked import ACK_SECONDS, STATUS_BYTES, ForkedMatch, match_channels
from sandbox.processes import HOST_FILE
from sandbox.readiness import readable

log = logging.getLogger(__name__)


class LocalServer:
    """An unjailed server (``host.py --serve``) that forks a fresh host for every bot."""

    def __init__(self) -> None:
        self.control, child_control = socket.socketpair()
        try:
            self.popen = subprocess.Popen(
                [sys.executable or "python3", *policy.PYTHON_FLAGS, str(HOST_FILE), "--serve"],
                stdin=child_control.fileno(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={},
                start_new_session=True,
            )
        except BaseException:
            self.control.close()
            raise
        finally:
            child_control.close()
        log.debug("bot server started: pid %d", self.popen.pid, extra={"jail_event": "spawn"})

    def alive(self) -> bool:
        return self.popen.poll() is None

    def start_match(self) -> LocalMatch:
        """A fresh host in a session of its own; OSError if the server does not fork it."""
        with match_channels(on_failure=self.close) as channels:
            socket.send_fds(self.control, [b"match"], channels.match_ends)
            ready = readable(self.control, ACK_SECONDS)
            answer = self.control.recv(STATUS_BYTES) if ready else b""
            if len(answer) != STATUS_BYTES:
                raise OSError("the bot server did not fork a host")
            session = int.from_bytes(answer, "little")
            forked = readable(channels.status, ACK_SECONDS)
            answer = os.read(channels.status, STATUS_BYTES) if forked else b""
            if len(answer) != STATUS_BYTES:
                raise OSError("the bot server's session did not fork a host")
        host = int.from_bytes(answer, "little")
        return LocalMatch(
            session, host, channels.protocol.detach(), channels.stderr, channels.status
        )

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.control.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.popen.pid, signal.SIGKILL)
        self.popen.wait()


class LocalMatch(ForkedMatch):
    """An unjailed host forked for one bot, in a session of its own (`LocalProcess`'s way),
    and in a process group of its own there, which pausing stops and resumes: the session's
    leader, which only waits for the host, is left asleep."""

    def __init__(self, session: int, host: int, protocol: int, stderr: int, status: int) -> None:
        super().__init__(protocol, stderr, status)
        self._session, self._host = session, host

    @property
    def pid(self) -> int:
        return self._session

    def pause(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._host, signal.SIGSTOP)

    def resume(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._host, signal.SIGCONT)

    def kill(self) -> None:
        """Kill the host's group (while the leader keeps its number), the tree of the
        session's leader, and the session's processes."""
        if self._killed:
            return
        self._killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._host, signal.SIGKILL)
        tree.kill_tree(self._session)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._session, signal.SIGKILL)
        log.debug("unjailed host killed: session %d", self._session)


class UnjailedServer:
    """This process's unjailed server, started when first needed; a forked child's own."""

    def __init__(self) -> None:
        self._server: LocalServer | None = None
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def match(self) -> LocalMatch:
        """A fresh unjailed host from this process's bot server (started when needed)."""
        with self._lock:
            if self._pid != os.getpid():  # a forked child: the server is the parent's
                self._server, self._pid = None, os.getpid()
                at_exit(self.clear, ORDER_BEFORE_GRAVEYARD)
            server = self._server
            if server is None or not server.alive():
                server = self._server = LocalServer()
        try:
            return server.start_match()
        except OSError:  # the server is gone (closed by start_match): a new one
            with self._lock:
                server = self._server = LocalServer()
            return server.start_match()

    def clear(self) -> None:
        """Close the server."""
        with self._lock:
            if self._pid != os.getpid():
                return
            server, self._server = self._server, None
        if server is not None:
            server.close()


_unjailed: UnjailedServer | None = None


def unjailed_server() -> UnjailedServer:
    global _unjailed
    if _unjailed is None:
        _unjailed = UnjailedServer()
        at_exit(_unjailed.clear, ORDER_BEFORE_GRAVEYARD)
    return _unjailed
