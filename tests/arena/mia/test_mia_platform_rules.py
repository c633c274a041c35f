"""Lives, elimination, places, infractions, crashes and the turn cap (RULES.md 1.2, 1.8)."""

from __future__ import annotations

import pytest

from arena.games.mia.values import ACCUSE, ANNOUNCE, ROLL, VOUCH
from tests.arena.mia.mia_helpers import (
    current_claim,
    events_of,
    fresh_round_without_reveal,
    lives,
    losses,
    new_match,
    play,
    round_starter,
)


def test_lives_never_go_below_zero_and_a_player_at_zero_is_out_at_once() -> None:
    state = new_match(3, rolls=((1, 2),), lives=[3, 1, 3])
    play(state, ROLL, ANNOUNCE[21], ACCUSE)
    assert losses(state) == [(1, 1, "accusation")]
    assert lives(state) == [3, 0, 3]
    assert events_of(state, "eliminated") == [{"type": "eliminated", "seat": 1, "place": 3}]
    assert state.observation(0)["players"][1]["in_game"] is False
    assert round_starter(state) == 2


def test_places_follow_the_order_of_elimination_and_the_last_one_in_wins() -> None:
    state = new_match(3, starter=1, rolls=((3, 1), (3, 1)), lives=1)
    play(state, ROLL, ANNOUNCE[65], ACCUSE)
    assert round_starter(state) == 2
    play(state, ROLL, ANNOUNCE[65], ACCUSE)
    assert state.is_over()
    assert state.current_seat() is None
    assert state.legal_actions() == []
    assert state.result().to_json() == {"places": [1, 3, 2], "lives": [1, 0, 0]}
    assert state.events[-1] == {"type": "end", "places": [1, 3, 2], "lives": [1, 0, 0]}


def test_the_result_is_not_available_before_the_end() -> None:
    with pytest.raises(ValueError, match="not over"):
        new_match(2).result()


def test_an_eliminated_loser_is_skipped_by_the_next_one_still_in() -> None:
    state = new_match(4, starter=1, rolls=((3, 1), (3, 1)), lives=[2, 1, 1, 2])
    play(state, ROLL, ANNOUNCE[65], ACCUSE)
    assert round_starter(state) == 2
    play(state, ROLL, ANNOUNCE[43], ACCUSE)
    assert losses(state)[-1] == (2, 1, "accusation")
    assert round_starter(state) == 3


def test_a_seat_eliminated_before_its_turn_to_start_is_skipped() -> None:
    state = new_match(3, starter=2, rolls=((3, 1), (4, 2)), lives=[2, 1, 2])
    play(state, ROLL, ANNOUNCE[31])
    state.crash(1, "process died")
    assert round_starter(state) == 2
    play(state, ROLL, ANNOUNCE[53])
    assert state.current_seat() == 0
    state.apply(ACCUSE)
    assert losses(state)[-1] == (2, 1, "accusation")
    assert round_starter(state) == 0


def test_an_infraction_costs_one_life_ends_the_round_and_the_next_after_him_starts() -> None:
    state = new_match(3, rolls=((6, 2),))
    play(state, ROLL, ANNOUNCE[62])
    state.infraction(1, "late: 12.000s with the time bank spent")
    assert state.events[-3] == {
        "type": "infraction",
        "seat": 1,
        "reason": "late: 12.000s with the time bank spent",
    }
    assert losses(state) == [(1, 1, "infraction")]
    assert fresh_round_without_reveal(state) == 2


def test_an_infraction_of_a_player_who_is_not_the_claimant_drops_the_claim() -> None:
    state = new_match(3, rolls=((6, 2),))
    play(state, ROLL, ANNOUNCE[62], VOUCH)
    state.infraction(0, "illegal action: {'type': 'roll'}")
    assert losses(state) == [(0, 1, "infraction")]
    assert current_claim(state) == (None, None)
    assert round_starter(state) == 1


def test_a_crash_eliminates_at_once_and_the_match_goes_on() -> None:
    state = new_match(3, rolls=((6, 2),))
    play(state, ROLL, ANNOUNCE[62])
    state.crash(1, "process died")
    assert losses(state) == [(1, 6, "crash")]
    assert events_of(state, "eliminated") == [{"type": "eliminated", "seat": 1, "place": 3}]
    assert not state.is_over()
    assert round_starter(state) == 2


def test_a_crash_of_the_claimant_ends_the_round_without_reveal() -> None:
    state = new_match(3, rolls=((6, 2),))
    play(state, ROLL, ANNOUNCE[62])
    state.crash(0, "memory limit")
    assert fresh_round_without_reveal(state) == 1


def test_a_crash_leaving_one_player_ends_the_match() -> None:
    state = new_match(2, starter=1)
    state.crash(1, "could not start: no act function")
    assert state.result().to_json() == {"places": [1, 2], "lives": [6, 0]}


def test_a_crash_after_the_end_changes_nothing_and_is_not_recorded() -> None:
    state = new_match(3)
    state.crash(0, "could not start")
    state.crash(1, "could not start")
    events = list(state.events)
    state.crash(2, "could not start")
    state.infraction(2, "late")
    assert state.events == events
    assert state.result().to_json() == {"places": [3, 2, 1], "lives": [0, 0, 6]}


def test_a_crash_of_a_seat_already_out_is_recorded_without_effect() -> None:
    state = new_match(3)
    state.crash(0, "could not start")
    state.crash(0, "closed its output")
    assert state.events[-1] == {"type": "crash", "seat": 0, "reason": "closed its output"}
    assert losses(state) == [(0, 6, "crash")]


def test_an_infraction_for_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat 3"):
        new_match(3).infraction(3, "late")


def test_the_turn_cap_ends_the_match_and_places_those_still_in_by_lives() -> None:
    state = new_match(4, rolls=((3, 1),), lives=[2, 5, 5, 1], turn_cap=3)
    state.crash(3, "process died")
    assert round_starter(state) == 0
    play(state, ROLL, ANNOUNCE[42])
    assert not state.is_over()
    state.apply(ACCUSE)
    assert losses(state)[-1] == (0, 1, "accusation")
    assert state.events[-2] == {"type": "turn_cap", "actions": 3}
    assert state.result().to_json() == {"places": [3, 1, 1, 4], "lives": [1, 5, 5, 0]}


def test_only_actions_count_toward_the_turn_cap() -> None:
    state = new_match(3, rolls=((3, 1),), turn_cap=2)
    state.infraction(0, "late")
    state.infraction(1, "late")
    state.apply(ROLL)
    assert not state.is_over()
    state.apply(ANNOUNCE[31])
    assert state.result().to_json() == {"places": [2, 2, 1], "lives": [5, 5, 6]}
