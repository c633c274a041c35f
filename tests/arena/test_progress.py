"""The progress bar of `tavolo play` and `tavolo tournament`: late, and never with --json."""

from __future__ import annotations

import io
import time

from rich.console import Console

from arena.cli.progress import DELAY_SECONDS, match_progress


def shown(*, quiet: bool, seconds: float) -> str:
    """What a bar over 10 matches, 4 of them done, wrote to a terminal within `seconds`."""
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    with match_progress("mia", 10, quiet=quiet, console=terminal) as progress:
        for _ in range(4):
            progress.advance()
            time.sleep(seconds / 4)
        written = screen.getvalue()
    return written


def test_a_bar_appears_after_a_second_with_matches_a_second_and_the_time_left():
    written = shown(quiet=False, seconds=DELAY_SECONDS + 0.5)
    assert "4/10" in written
    assert "matches/s" in written
    assert "0:00:0" in written  # the time left


def test_no_bar_for_work_done_within_a_second():
    assert shown(quiet=False, seconds=DELAY_SECONDS / 4) == ""


def test_a_quiet_bar_never_appears():
    assert shown(quiet=True, seconds=DELAY_SECONDS + 0.5) == ""
