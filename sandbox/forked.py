"""A bot's host forked by a server for one match, as the runner sees it: its channels.

Both servers, a kept jail's (`sandbox.kept`) and the unjailed one
(`sandbox.unjailed`), take a match's three descriptors over their control
socket and fork a host onto them; this module holds what the two share.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections.abc import Callable, Iterator

from sandbox.processes import EXIT_WAIT_SECONDS, BotProcess
from sandbox.readiness import readable

ACK_SECONDS = 5.0
"""How long a server may take to answer that it forked a match."""
STATUS_BYTES = 4


class MatchChannels:
    """A match's three channels, protocol, stderr and exit status: the runner's ends and
    the ends a server passes to the match it forks."""

    def __init__(self) -> None:
        self.protocol, self._bot_end = socket.socketpair()
        self.stderr, self._stderr_end = os.pipe2(os.O_CLOEXEC)
        self.status, self._status_end = os.pipe2(os.O_CLOEXEC)

    @property
    def match_ends(self) -> list[int]:
        return [self._bot_end.fileno(), self._stderr_end, self._status_end]

    def close_match_ends(self) -> None:
        self._bot_end.close()
        os.close(self._stderr_end)
        os.close(self._status_end)

    def close_runner_ends(self) -> None:
        self.protocol.close()
        os.close(self.stderr)
        os.close(self.status)


@contextlib.contextmanager
def match_channels(on_failure: Callable[[], None]) -> Iterator[MatchChannels]:
    """New channels for a match being sent to a server. The match's ends are closed here
    once sent; if sending fails, the runner's ends too, and `on_failure` runs."""
    channels = MatchChannels()
    try:
        yield channels
    except BaseException:
        channels.close_runner_ends()
        on_failure()
        raise
    finally:
        channels.close_match_ends()


class ForkedMatch(BotProcess):
    """A host forked by a server for one match: its protocol socket, its stderr, and a
    pipe on which the process waiting for it writes its wait status."""

    def __init__(self, protocol: int, stderr: int, status: int) -> None:
        self.protocol, self.stderr, self._status = protocol, stderr, status
        self._code: int | None = None
        self._killed = self._closed = False

    def _read_status(self, seconds: float) -> bool:
        """True once the host's waiter said how it ended (or died itself)."""
        if self._code is not None:
            return True
        if not readable(self._status, seconds):
            return False
        data = os.read(self._status, STATUS_BYTES)
        if len(data) == STATUS_BYTES:
            self._code = os.waitstatus_to_exitcode(int.from_bytes(data, "little", signed=True))
        else:
            self._code = -signal.SIGKILL  # the waiter itself was killed
        return True

    def alive(self) -> bool:
        return not self._closed and not self._read_status(0)

    def exit_code(self) -> int | None:
        return self._code if self._read_status(EXIT_WAIT_SECONDS) else None

    def close_pipes(self) -> None:
        if self._closed:
            return
        self._closed = True
        for fd in (self.protocol, self.stderr, self._status):
            with contextlib.suppress(OSError):
                os.close(fd)
