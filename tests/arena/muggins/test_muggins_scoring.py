"""Scoring a play (RULES.md 2.4): the count of both open ends, credited when a multiple of 5."""

from __future__ import annotations

import pytest

from arena.games.muggins.line import credit
from tests.arena.muggins.muggins_helpers import deal, last_play, play


@pytest.mark.parametrize(
    ("opening", "count", "points"),
    [("5-5", 10, 10), ("6-4", 10, 10), ("3-2", 5, 5), ("6-6", 12, 0), ("4-1", 5, 5), ("6-1", 7, 0)],
)
def test_the_opening_tile_counts_its_pips_with_a_double_once(
    opening: str, count: int, points: int
) -> None:
    state = deal(opening, "0-0")
    play(state, opening)
    event = last_play(state)
    assert (event["count"], event["credit"], event["score"]) == (count, points, points)
    assert state.scores == [points, 0]


def test_a_double_laid_on_an_end_counts_both_halves_three_plus_six_six_is_fifteen() -> None:
    state = deal("6-3 1-1", "6-6 1-0")
    play(state, "6-3")
    assert last_play(state)["count"] == 9
    play(state, "6-6", "left")
    event = last_play(state)
    assert (event["ends"], event["count"], event["credit"]) == ([6, 3], 15, 15)
    assert state.scores == [0, 15]


def test_an_opening_double_still_counts_both_halves_at_the_end_it_sits_on() -> None:
    state = deal("5-5 1-1", "5-3 1-0")
    play(state, "5-5")
    play(state, "5-3", "right")
    assert (last_play(state)["count"], last_play(state)["credit"]) == (13, 0)


def test_a_continued_double_counts_nothing() -> None:
    state = deal("5-5 5-1 1-1", "5-0 2-2")
    play(state, "5-5")
    play(state, "5-0", "right")
    assert last_play(state)["count"] == 10
    play(state, "5-1", "left")
    event = last_play(state)
    assert (event["ends"], event["count"], event["credit"]) == ([1, 0], 1, 0)


def test_the_end_chosen_decides_the_score() -> None:
    scored = {}
    for end in ("left", "right"):
        state = deal("5-3 5-2 1-1", "3-2 0-0")
        play(state, "5-3")
        play(state, "3-2", "right")
        assert [action["end"] for action in state.legal_actions()] == ["left", "right"]
        play(state, "5-2", end)
        scored[end] = (last_play(state)["ends"], last_play(state)["credit"])
    assert scored == {"left": ([2, 2], 0), "right": ([5, 5], 10)}


def test_a_tile_fitting_two_ends_that_show_the_same_number_is_still_two_moves() -> None:
    state = deal("3-3 1-1", "3-1 0-0")
    play(state, "3-3")
    assert state.legal_actions() == [
        {"type": "play", "tile": [3, 1], "end": "left"},
        {"type": "play", "tile": [3, 1], "end": "right"},
    ]


def test_a_play_that_empties_the_hand_scores_before_the_hand_is_counted() -> None:
    state = deal("5-0 6-6", "5-5", hand_cap=1)
    play(state, "5-0")
    play(state, "5-5", "left")
    assert last_play(state)["credit"] == 10
    assert [event["type"] for event in state.events[-3:]] == ["play", "hand_end", "end"]
    assert state.result().scores == (5 - 10, 10)


@pytest.mark.parametrize(
    ("count", "points"), [(0, 0), (4, 0), (5, 5), (10, 10), (13, 0), (15, 15), (20, 20), (24, 0)]
)
def test_only_multiples_of_five_are_credited(count: int, points: int) -> None:
    assert credit(count) == points
