"""A bot's text reaches the terminal as text: no markup read, no control byte written."""

from __future__ import annotations

import re

import pytest

from arena.cli.safe_text import visible

HOSTILE_TEXT = "[/bold] \x1b]52;c;aGk=\x07 \x1b[2J \x9b31m \x7f \u202eevil"

RAISING_BOT = f"""
import sys
print({HOSTILE_TEXT!r}, file=sys.stderr)
def act(observation):
    raise ValueError({HOSTILE_TEXT!r})
"""

# Every C0 control but the newline, DEL and C1.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def raising_bot(tmp_path):
    path = tmp_path / "shout\x1b]0;pwned\x07.py"
    path.write_text(RAISING_BOT)
    return path


def test_a_bot_raising_markup_and_escapes_is_shown_escaped(run, raising_bot):
    result = run("play", "mia", raising_bot, "builtin:random", "--games", "2", "--no-jail")
    assert result.exit_code == 0, result.output
    for stream in (result.stdout, result.stderr):
        assert not RAW_CONTROL.search(stream), ascii(stream)
    assert "ValueError: [/bold] \\e]52;c;aGk=\\x07 \\e[2J" in result.stdout
    assert "shout\\e]0;pwned\\x07" in result.stdout
    assert "\\u202eevil" in result.stdout


def test_a_tournament_shows_a_bots_notes_escaped(run, raising_bot):
    result = run(
        "tournament", "mia", raising_bot, "builtin:random", "--format", "round-robin", "--no-jail"
    )
    assert result.exit_code == 0, result.output
    for stream in (result.stdout, result.stderr):
        assert not RAW_CONTROL.search(stream), ascii(stream)
    assert "[/bold] \\e]52;c;aGk=\\x07" in result.stdout


def test_visible_escapes_every_control_character_and_keeps_the_rest():
    assert visible("a\x00b\x1bc\x7fd\x85e\u2028f") == "a\\x00b\\ec\\x7fd\\x85e\\u2028f"
    assert visible("one\ntwo\tthree") == "one\\ntwo\\tthree"
    assert visible("one\ntwo", lines=True) == "one\ntwo"
    assert visible("héllo [b]wörld[/b] ♠") == "héllo [b]wörld[/b] ♠"
