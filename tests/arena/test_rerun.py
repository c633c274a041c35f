"""`tavolo replay rerun`: a recorded match played again with some seats replaced."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli.new_bot import starter_source
from arena.replay import read_replay, verify_replay
from arena.rerun import rerun_replay

SOMETIMES_ILLEGAL = """
turns = 0


def act(observation):
    global turns
    turns += 1
    if turns % 3 == 0:
        return {"type": "dance"}
    return observation["legal_actions"][0]
"""

OLD_REPLAY = Path(__file__).parent / "replays" / "engine-1.0.0-classic-11-high.json.gz"


@pytest.fixture
def starter(tmp_path):
    def write(game: str) -> Path:
        path = tmp_path / f"{game}_bot.py"
        path.write_text(starter_source(game))
        return path

    return write


@pytest.mark.parametrize("game", ["mia", "muggins"])
def test_a_rerun_with_the_same_bot_file_reproduces_the_match_exactly(run, tmp_path, starter, game):
    bot = starter(game)
    run("play", game, bot, "builtin:strong", "--replays", tmp_path / "out", "--no-jail")
    recorded = tmp_path / "out" / "match-0001.json.gz"
    again = tmp_path / "again.json.gz"
    result = run("replay", "rerun", recorded, "--seat", f"0={bot}", "--out", again, "--no-jail")
    assert result.exit_code == 0, result.output
    assert "the same match as recorded, all" in result.stdout
    assert read_replay(again)["events"] == read_replay(recorded)["events"]
    assert read_replay(again)["result"] == read_replay(recorded)["result"]


def test_recorded_infractions_are_replayed_as_they_happened(run, tmp_path):
    sloppy, steady = tmp_path / "sloppy.py", tmp_path / "steady.py"
    sloppy.write_text(SOMETIMES_ILLEGAL)
    steady.write_text(starter_source("mia"))
    run("play", "mia", sloppy, steady, "--replays", tmp_path / "out", "--no-jail")
    recorded = read_replay(tmp_path / "out" / "match-0001.json.gz")
    assert any(event["type"] == "infraction" for event in recorded["events"])
    result = rerun_replay(recorded, {1: str(steady)}, jail=False)
    assert result.first_difference is None
    assert result.record.replay["events"] == recorded["events"]


def test_another_bot_shows_the_first_difference_and_plays_on_legally(run, tmp_path, starter):
    bot = starter("mia")
    run("play", "mia", bot, "builtin:strong", "builtin:random", "--replays", tmp_path, "--no-jail")
    path = tmp_path / "match-0001.json.gz"
    result = run("replay", "rerun", path, "--seat", "0=builtin:random", "--out", tmp_path / "b.gz")
    assert result.exit_code == 0, result.output
    assert "first difference at event" in result.stdout
    assert "recorded: " in result.stdout and "new: " in result.stdout
    new = read_replay(tmp_path / "b.gz")
    verify_replay(new)
    recorded = read_replay(path)
    rerun = rerun_replay(recorded, {0: "builtin:random"})
    index = rerun.first_difference
    assert index is not None and index > 0
    assert rerun.record.replay["events"][:index] == recorded["events"][:index]
    assert [seat.infractions for seat in rerun.record.seats[1:]] == [0, 0]


def test_a_replay_of_an_older_engine_is_rerun_under_its_rules():
    recorded = read_replay(OLD_REPLAY)
    result = rerun_replay(recorded, {0: "builtin:strong"})
    assert result.record.replay["engine_version"] == "1.0.0"
    verify_replay(result.record.replay)


@pytest.mark.parametrize(
    "seat, message",
    [("5=builtin:random", "seat 5 is not in this 3-player match"), ("one=x.py", "--seat wants")],
)
def test_a_seat_that_is_not_in_the_match_is_refused(run, seat, message):
    result = run("replay", "rerun", OLD_REPLAY, "--seat", seat)
    assert result.exit_code == 2
    assert message in result.stderr
