"""The progress bar of commands that play many matches: shown only if they take a while."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from arena.cli.output import error_console

DELAY_SECONDS = 1.0
"""A command done sooner never shows its bar."""


class RateColumn(ProgressColumn):
    """Matches a second, over the last half minute."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("" if speed is None else f"{speed:.1f} matches/s", style="progress.data.speed")


@contextlib.contextmanager
def match_progress(
    description: str, total: int, *, quiet: bool, console: Console = error_console
) -> Iterator[MatchProgress]:
    """A `MatchProgress` for the matches played inside the block."""
    progress = MatchProgress(description, total, quiet=quiet, console=console)
    try:
        yield progress
    finally:
        progress.end()


class MatchProgress:
    """A transient bar on stderr with matches done, matches a second and the time left.

    It appears once the matches have run for `DELAY_SECONDS` (counted from its
    making), and never when `quiet` (``--json``: stdout and stderr stay as they were).
    """

    def __init__(
        self, description: str, total: int, *, quiet: bool, console: Console = error_console
    ) -> None:
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=quiet,
        )
        self._task = self._progress.add_task(description, total=total)
        self._lock = threading.Lock()
        self._ended = False
        self._timer = threading.Timer(DELAY_SECONDS, self._show)
        self._timer.daemon = True
        self._timer.start()

    def end(self) -> None:
        """Take the bar away, or make sure it never comes."""
        self._timer.cancel()
        with self._lock:
            self._ended = True
            self._progress.stop()

    def advance(self) -> None:
        """One match more is done."""
        self._progress.advance(self._task)

    def add(self, matches: int) -> None:
        """`matches` more are to be played (formats that draw their tables as they go)."""
        total = self._progress.tasks[0].total or 0
        self._progress.update(self._task, total=total + matches)

    def _show(self) -> None:
        with self._lock:
            if not self._ended:
                self._progress.start()
