"""Illegal replies, infractions and crashes (RULES.md 2.8): the engine plays the default move."""

from __future__ import annotations

import copy

import pytest

from arena.engine import IllegalActionError
from arena.games.muggins.game import MugginsGame
from tests.arena.muggins.muggins_helpers import deal, events_of, last_play, play


@pytest.mark.parametrize(
    "action",
    [
        None,
        {},
        "play",
        {"type": "play"},
        {"type": "play", "tile": [6, 4], "end": "middle"},
        {"type": "play", "tile": [4, 6], "end": "left"},
        {"type": "play", "tile": (6, 4), "end": "left"},
        {"type": "play", "tile": [1, 0], "end": "left"},
        {"type": "play", "tile": [6, 4], "end": "left", "also": 1},
        {"type": "draw"},
    ],
)
def test_an_action_that_is_not_legal_raises_and_changes_nothing(action: object) -> None:
    state = deal("6-4 3-3", "1-0 2-2")
    before = copy.deepcopy(state.events)
    with pytest.raises(IllegalActionError):
        state.apply(action)  # type: ignore[arg-type]
    assert state.events == before
    assert state.current_seat() == 0


def test_a_copy_of_a_legal_action_is_legal_and_logged_as_the_engine_lists_it() -> None:
    state = deal("6-4 3-3", "6-1 2-2")
    listed = state.legal_actions()[1]
    state.apply(copy.deepcopy(listed))
    assert events_of(state, "action") == [{"type": "action", "seat": 0, "action": listed}]
    assert last_play(state)["tile"] == [3, 3]


def test_an_infraction_plays_the_first_legal_move_and_records_its_reason() -> None:
    state = deal("6-4 3-3", "6-1 2-2")
    state.infraction(0, "late: 1.20 s")
    assert state.events[-2:] == [
        {"type": "infraction", "seat": 0, "reason": "late: 1.20 s"},
        {**last_play(state), "tile": [6, 4], "end": "left", "seat": 0},
    ]
    assert {"type": "infraction", "seat": 0, "reason": "late: 1.20 s"} in state.history
    assert state.current_seat() == 1


def test_an_infraction_for_a_seat_not_to_play_is_refused() -> None:
    state = deal("6-4 3-3", "1-0 2-2")
    with pytest.raises(ValueError, match="not the seat to play"):
        state.infraction(1, "late")


def test_a_crashed_seat_is_played_by_the_engine_and_never_asked_again() -> None:
    state = MugginsGame(3).new_state(11)
    crashed = state.current_seat()
    assert crashed is not None
    state.crash(crashed, "process exited with status 1")
    assert {"type": "crash", "seat": crashed, "reason": "process exited with status 1"} in (
        state.history
    )
    while not state.is_over():
        assert state.current_seat() != crashed
        state.apply(state.legal_actions()[-1])
    assert any(event["seat"] == crashed for event in events_of(state, "play"))
    assert state.result().places[crashed] == 3


def test_a_crashed_seat_is_placed_last_whatever_its_score() -> None:
    state = deal("4-1 3-3", "1-0 2-2", "6-0", hand_cap=1)
    state.crash(2, "killed: memory limit")
    play(state, "4-1")
    play(state, "1-0", "right")
    assert last_play(state)["seat"] == 2
    assert state.result().to_json() == {"places": [1, 2, 3], "scores": [0, -5, 10]}


def test_a_seat_that_crashes_before_its_first_turn_is_played_from_the_start() -> None:
    state = deal("6-6 1-1", "6-5 0-0", opener=0)
    state.crash(1, "failed to import")
    play(state, "6-6")
    assert last_play(state)["seat"] == 1
    assert last_play(state)["tile"] == [6, 5]
    assert state.current_seat() == 0


def test_a_second_crash_of_a_seat_changes_and_records_nothing() -> None:
    state = deal("6-6 1-1", "6-5 0-0", "2-2", "3-3")
    state.crash(1, "exit")
    events = list(state.events)
    state.crash(1, "exit again")
    assert state.events == events
    with pytest.raises(ValueError, match="no seat 4"):
        state.crash(4, "no such seat")


def test_once_the_match_is_over_crashes_and_infractions_change_and_record_nothing() -> None:
    state = deal("5-5 1-1", "0-0", target=10)
    play(state, "5-5")
    events = list(state.events)
    state.crash(1, "exit")
    state.infraction(0, "late")
    assert state.events == events
    assert state.result().to_json() == {"places": [1, 2], "scores": [10, 0]}


def test_when_every_seat_has_crashed_the_match_ends_at_once() -> None:
    state = deal("5-0 1-1", "5-5 0-0", "3-3 2-2")
    play(state, "5-0")
    for seat in (2, 0, 1):
        state.crash(seat, "exit")
    assert state.events[-1]["type"] == "end"
    assert state.events[-1]["reason"] == "crashed"
    assert state.result().to_json() == {"places": [1, 2, 2], "scores": [5, 0, 0]}


def test_a_crashed_seat_reaching_the_target_ends_the_match_but_is_placed_last() -> None:
    state = deal("5-0 1-1", "5-5 0-0", "3-3 2-2", target=10)
    state.crash(1, "exit")
    play(state, "5-0")
    assert state.is_over()
    assert state.events[-1]["reason"] == "target"
    assert state.result().to_json() == {"places": [1, 3, 2], "scores": [5, 10, 0]}
