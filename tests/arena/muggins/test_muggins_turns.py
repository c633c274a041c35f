"""Opening, drawing, passing and the end of a hand (RULES.md 2.2, 2.3, 2.5, 2.6)."""

from __future__ import annotations

import pytest

from arena.games.muggins.game import MugginsGame
from arena.games.muggins.state import MugginsState, round_pips
from tests.arena.muggins.muggins_helpers import deal, events_of, last_play, play, tiles

BLOCKING_PLAYS = (
    ("0-0", "left"),
    ("1-0", "right"),
    ("3-1", "right"),
    ("3-0", "right"),
    ("2-0", "left"),
    ("4-2", "left"),
    ("4-0", "left"),
    ("5-0", "left"),
    ("6-5", "left"),
    ("6-0", "left"),
)
"""Ten plays, alternating seats, that lay all seven 0s with a 0 at both ends."""


def blocked_deal(seed: int = 0) -> MugginsState:
    """Two seats holding every tile, about to block the hand after `BLOCKING_PLAYS`."""
    state = deal(
        "0-0 3-1 2-0 4-0 6-5 1-1 2-1 2-2 3-2 3-3 4-1 4-3 4-4 5-1",
        "1-0 3-0 4-2 5-0 6-0 5-2 5-3 5-4 5-5 6-1 6-2 6-3 6-4 6-6",
        seed=seed,
    )
    for tile, end in BLOCKING_PLAYS:
        play(state, tile, end)
    return state


def test_the_opener_may_play_any_tile_each_on_the_left_heaviest_first() -> None:
    state = deal("2-1 6-6 4-3", "0-0", opener=0)
    assert state.current_seat() == 0
    assert state.legal_actions() == [
        {"type": "play", "tile": tile, "end": "left"} for tile in tiles("6-6 4-3 2-1")
    ]


def test_legal_moves_follow_hand_order_and_the_left_end_before_the_right() -> None:
    state = deal("6-3 1-1", "6-5 3-2 6-0 1-0")
    play(state, "6-3")
    assert state.legal_actions() == [
        {"type": "play", "tile": [6, 5], "end": "left"},
        {"type": "play", "tile": [6, 0], "end": "left"},
        {"type": "play", "tile": [3, 2], "end": "right"},
    ]


def test_turns_go_clockwise() -> None:
    state = deal("6-6 5-5", "6-4 6-3", "4-2 1-1", opener=1)
    seats = []
    for tile, end in (("6-4", "left"), ("4-2", "right"), ("6-6", "left")):
        seats.append(state.current_seat())
        play(state, tile, end)
    assert seats == [1, 2, 0]


def test_a_player_without_a_play_draws_until_one_fits_and_must_play_that_tile() -> None:
    state = deal("6-5 4-4", "1-1 0-0", boneyard="2-2 3-1 6-3 2-1")
    play(state, "6-5")
    assert state.current_seat() == 1
    assert [event["tile"] for event in events_of(state, "draw")] == tiles("2-2 3-1 6-3")
    assert state.legal_actions() == [{"type": "play", "tile": [6, 3], "end": "left"}]
    observation = state.observation(1)
    assert observation["drawn"] == tiles("2-2 3-1 6-3")
    assert observation["hand"] == tiles("6-3 3-1 2-2 1-1 0-0")
    assert observation["boneyard"] == 24 - 3
    assert [event for event in state.history if event["type"] == "draw"] == [
        {"type": "draw", "seat": 1}
    ] * 3


def test_a_drawn_tile_that_fits_both_ends_leaves_the_choice_of_end() -> None:
    state = deal("6-6 4-4", "1-1 0-0", boneyard="2-2 6-3")
    play(state, "6-6")
    assert state.legal_actions() == [
        {"type": "play", "tile": [6, 3], "end": "left"},
        {"type": "play", "tile": [6, 3], "end": "right"},
    ]


def test_the_drawn_tiles_are_shown_only_for_the_turn_they_were_drawn() -> None:
    state = deal("6-5 5-4 4-0", "1-1 0-0 4-2", boneyard="6-3")
    play(state, "6-5")
    assert state.observation(1)["drawn"] == [[6, 3]]
    play(state, "6-3", "left")
    assert state.observation(1)["drawn"] == []
    assert state.observation(0)["drawn"] == []
    play(state, "5-4", "right")
    assert state.current_seat() == 1
    assert state.observation(1)["drawn"] == []


def test_a_player_passes_only_when_the_boneyard_is_empty() -> None:
    everything_but_sixes = "5-5 5-4 5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-1 4-0 3-3 3-2 3-1"
    state = deal("6-6 6-5 6-4 6-3 6-2 6-1 6-0 3-0 2-2 2-1 2-0 1-1 1-0 0-0", everything_but_sixes)
    play(state, "6-6")
    assert events_of(state, "pass") == [{"type": "pass", "seat": 1}]
    assert events_of(state, "draw") == []
    assert state.current_seat() == 0


def test_a_hand_nobody_can_play_is_blocked_and_every_seat_pays_its_own_pips() -> None:
    state = blocked_deal()
    passes = [event["seat"] for event in events_of(state, "pass")]
    assert passes == [0, 1]
    (hand_end,) = events_of(state, "hand_end")
    assert hand_end["reason"] == "blocked"
    assert hand_end["hands"] == [
        tiles("5-1 4-4 4-3 4-1 3-3 3-2 2-2 2-1 1-1"),
        tiles("6-6 6-4 6-3 6-2 6-1 5-5 5-4 5-3 5-2"),
    ]
    assert hand_end["penalties"] == [round_pips(46), round_pips(80)] == [45, 80]
    credited = [
        sum(event["credit"] for event in events_of(state, "play") if event["seat"] == seat)
        for seat in (0, 1)
    ]
    assert hand_end["scores"] == [credited[0] - 45, credited[1] - 80]


def test_a_blocked_hand_draws_the_next_opener_at_random() -> None:
    openers = {events_of(blocked_deal(seed), "hand")[-1]["opener"] for seed in range(30)}
    assert openers == {0, 1}


def test_the_player_who_ends_the_hand_opens_the_next() -> None:
    for seed in range(10):
        state = deal("6-6 1-0", "6-2", seed=seed)
        play(state, "6-6")
        play(state, "6-2", "left")
        assert events_of(state, "hand_end")[0]["reason"] == "domino"
        new_hand = events_of(state, "hand")[-1]
        assert (new_hand["number"], new_hand["opener"]) == (2, 1)
        assert state.current_seat() == 1


@pytest.mark.parametrize(
    ("pips", "rounded"),
    [(0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (7, 5), (8, 10), (12, 10), (13, 15)],
)
def test_remaining_pips_round_to_the_nearest_five_with_three_and_four_up(
    pips: int, rounded: int
) -> None:
    assert round_pips(pips) == rounded


def test_nobody_is_credited_with_the_others_pips_and_scores_go_below_zero() -> None:
    state = deal("6-6 5-4 1-0", "6-2")
    play(state, "6-6")
    play(state, "6-2", "left")
    (hand_end,) = events_of(state, "hand_end")
    assert hand_end["penalties"] == [10, 0]
    assert hand_end["scores"] == [-10, 0]
    assert state.observation(0)["scores"] == [-10, 0]


def test_reaching_the_target_wins_at_once_with_no_subtraction() -> None:
    state = deal("6-3 6-6 5-5 4-4", "4-3 3-3 2-2", target=10)
    play(state, "6-3")
    play(state, "4-3", "right")
    assert last_play(state)["score"] == 10
    assert state.is_over()
    assert state.current_seat() is None
    assert state.legal_actions() == []
    assert events_of(state, "hand_end") == []
    assert state.events[-1] == {
        "type": "end",
        "reason": "target",
        "places": [2, 1],
        "scores": [0, 10],
    }
    assert state.result().to_json() == {"places": [2, 1], "scores": [0, 10]}


def test_the_winner_is_placed_first_and_the_others_by_score() -> None:
    state = deal("5-0 6-6", "5-5 1-1", "3-2 2-2", target=10)
    play(state, "5-0")
    play(state, "5-5", "left")
    assert state.result().to_json() == {"places": [2, 1, 3], "scores": [5, 10, 0]}


def test_the_hand_cap_ends_the_match_placed_by_score_and_ties_share_a_place() -> None:
    state = deal("6-6 1-0", "6-2", "4-4", "3-3", hand_cap=1)
    play(state, "6-6")
    play(state, "6-2", "left")
    assert state.events[-1]["reason"] == "hand_cap"
    assert state.result().to_json() == {"places": [1, 1, 4, 3], "scores": [0, 0, -10, -5]}


def test_the_match_goes_on_until_the_hand_cap() -> None:
    game = MugginsGame(2, None, {"hand_cap": 3, "target": 1000})
    state = game.new_state(5)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    assert [event["number"] for event in events_of(state, "hand_end")] == [1, 2, 3]
    assert state.events[-1]["reason"] == "hand_cap"
