"""The runner's end of a bot's protocol socket and stderr: lines out, lines in, stderr kept.

Every wait is bounded by a deadline on the runner's monotonic clock, every
descriptor is non-blocking, and nothing the bot sends can grow memory past
the caps: a line longer than `line_bytes` is cut and reported, stderr goes to
a `LogRing`, and unsent input past `MAX_UNSENT_BYTES` means the bot is gone.
"""

from __future__ import annotations

import contextlib
import enum
import math
import os
import select
import time
from collections.abc import Callable

from sandbox.ring import LogRing

CHUNK_BYTES = 64 * 1024
MAX_DRAIN_CHUNKS = 16
"""Reads without waiting stop after this many chunks, so a flood cannot hold the runner."""
MAX_UNSENT_BYTES = 8 * 1024 * 1024
"""Input queued for a bot that stopped reading; past this the bot is treated as dead."""


class Outcome(enum.Enum):
    """Why `read_line` returned without a line."""

    TIMEOUT = "timeout"
    CLOSED = "closed"
    TOO_LONG = "too long"


class LineChannel:
    """Newline-framed messages over a protocol socket, with stderr drained aside."""

    def __init__(self, *, protocol: int, stderr: int, line_bytes: int, log_bytes: int) -> None:
        for fd in (protocol, stderr):
            os.set_blocking(fd, False)
        self._protocol, self._stderr = protocol, stderr
        self._line_bytes = line_bytes
        self.log = LogRing(log_bytes)
        self._buffer = bytearray()
        self._skipping = False
        self._unsent = b""
        self._stderr_open = True
        self._readable = select.poll()
        self._readable.register(protocol, select.POLLIN)
        self._readable.register(stderr, select.POLLIN)
        self._writable = select.poll()
        self._writable.register(protocol, select.POLLOUT)
        self._writable.register(stderr, select.POLLIN)

    # Writing

    def send(
        self, data: bytes, deadline: float, before_waiting: Callable[[], None] | None = None
    ) -> bool:
        """Write `data` (after anything left from before); False if the deadline came first.

        What could not be written is kept and goes first next time, so the bot
        never sees half a line followed by another line. `before_waiting` is
        called once if the bot must read some of it before the rest fits.
        """
        self._unsent += data
        while self._unsent:
            try:
                written = os.write(self._protocol, self._unsent)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                self._unsent = b""
                return True  # the bot is gone; reading will say so
            self._unsent = self._unsent[written:]
            if not self._unsent:
                return True
            if len(self._unsent) > MAX_UNSENT_BYTES:
                raise BrokenPipeError("the bot has stopped reading its input")
            if before_waiting is not None:
                before_waiting()
                before_waiting = None
            if not self._wait(self._writable, deadline):
                return False
        return True

    # Reading

    def read_line(self, deadline: float) -> bytes | Outcome:
        """The next line without its newline, or why there is none by `deadline`."""
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if not self._skipping and len(self._buffer) > self._line_bytes:
                self._buffer.clear()
                self._skipping = True
                return Outcome.TOO_LONG
            if not self._wait(self._readable, deadline):
                return Outcome.TIMEOUT
            if not self._read_protocol():
                return Outcome.CLOSED

    def read_pending(self) -> tuple[list[bytes | Outcome], bool]:
        """Every line that has already arrived, without waiting, and whether a part-line is left.

        A line longer than `line_bytes` is reported as `Outcome.TOO_LONG`.
        """
        if not self._buffer and not self._readable.poll(0):
            return [], False  # the usual case, in one system call
        closed = not self._read_available()
        lines: list[bytes | Outcome] = []
        while (line := self._take_line()) is not None:
            lines.append(line)
        if not self._skipping and len(self._buffer) > self._line_bytes:
            self._buffer.clear()
            self._skipping = True
            lines.append(Outcome.TOO_LONG)
        if closed:
            lines.append(Outcome.CLOSED)
        return lines, bool(self._buffer)

    def discard_partial(self) -> None:
        """Drop a part-line that nobody asked for, and the rest of it when it comes."""
        self._buffer.clear()
        self._skipping = True

    def drain_log(self) -> None:
        """Move what stderr holds now into the log (at most `MAX_DRAIN_CHUNKS` chunks)."""
        for _ in range(MAX_DRAIN_CHUNKS):
            if not self._read_stderr():
                return

    def _take_line(self) -> bytes | Outcome | None:
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if self._skipping:
                    self._buffer.clear()
                return None
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if self._skipping:
                self._skipping = False
                continue
            if len(line) > self._line_bytes:
                return Outcome.TOO_LONG
            return line

    def _wait(self, poller: select.poll, deadline: float) -> bool:
        """Wait until the awaited descriptor is ready (draining stderr meanwhile)."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            events = poller.poll(math.ceil(remaining * 1000))
            awaited = False
            for fd, _ in events:
                if fd == self._stderr:
                    self._read_stderr()
                else:
                    awaited = True
            if awaited:
                return True

    def _read_protocol(self) -> bool:
        """Read one chunk of the bot's lines; False at end of file."""
        try:
            data = os.read(self._protocol, CHUNK_BYTES)
        except BlockingIOError:
            return True
        except ConnectionResetError:  # the bot died with our last line unread
            return False
        self._buffer += data
        return bool(data)

    def _read_available(self) -> bool:
        """Read the protocol and stderr until they would block; False if the protocol has ended."""
        self.drain_log()
        for _ in range(MAX_DRAIN_CHUNKS):
            try:
                data = os.read(self._protocol, CHUNK_BYTES)
            except BlockingIOError:
                return True
            except ConnectionResetError:
                return False
            if not data:
                return False
            self._buffer += data
        return True

    def _read_stderr(self) -> bool:
        """Read one chunk of stderr into the log; False if there was none."""
        if not self._stderr_open:
            return False
        try:
            data = os.read(self._stderr, CHUNK_BYTES)
        except BlockingIOError:
            return False
        if not data:
            self._stderr_open = False
            for poller in (self._readable, self._writable):
                with contextlib.suppress(KeyError):
                    poller.unregister(self._stderr)
            return False
        self.log.write(data)
        return True
