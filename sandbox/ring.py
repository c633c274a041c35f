"""A byte buffer that keeps only the newest bytes: a bot's stderr, capped."""

from __future__ import annotations


class LogRing:
    """The last `capacity` bytes written, and a count of those cut before them."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._buffer = bytearray()
        self._cut = 0

    def write(self, data: bytes) -> None:
        self._buffer += data
        excess = len(self._buffer) - self._capacity
        if excess > 0:
            del self._buffer[:excess]
            self._cut += excess

    @property
    def written(self) -> int:
        """How many bytes were ever written: a mark for `since`."""
        return self._cut + len(self._buffer)

    def since(self, mark: int) -> str:
        """What was written after `mark` (an earlier `written`), as far as it is kept."""
        start = mark - self._cut
        body = self._buffer[max(0, start) :].decode("utf-8", "replace")
        if start < 0:
            return f"[... {-start} bytes of log cut ...]\n{body}"
        return body

    def last_line(self) -> str:
        """The last non-empty line, e.g. the exception that ended a traceback."""
        lines = self.text().strip().splitlines()
        return lines[-1] if lines else ""

    def text(self) -> str:
        """The kept bytes as text, after a note of how much was cut."""
        body = self._buffer.decode("utf-8", "replace")
        if self._cut:
            return f"[... {self._cut} earlier bytes of log cut ...]\n{body}"
        return body
