"""The Elo maths of multi-bot matches: known values and invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings import (
    INITIAL_RATING,
    expected_score,
    is_provisional,
    k_factor,
    rating_band,
    rating_changes,
)

ratings_st = st.floats(min_value=0, max_value=3000, allow_nan=False)
games_st = st.integers(min_value=0, max_value=10_000)


@st.composite
def matches(draw: st.DrawFn, *, same_games: bool = False) -> tuple[list, list, list]:
    """A table of 2 to 10 bots: ratings, places (ties allowed) and games played."""
    count = draw(st.integers(min_value=2, max_value=10))
    ratings = draw(st.lists(ratings_st, min_size=count, max_size=count))
    places = draw(st.lists(st.integers(1, count), min_size=count, max_size=count))
    if same_games:
        games = [draw(games_st)] * count
    else:
        games = draw(st.lists(games_st, min_size=count, max_size=count))
    return ratings, places, games


def test_k_starts_high_and_falls_to_its_floor() -> None:
    assert k_factor(0) == 720
    assert k_factor(9) == 72
    assert k_factor(89) == 8
    assert k_factor(5000) == 8


def test_a_new_bot_beating_an_equal_new_bot_gains_half_of_k() -> None:
    winner, loser = rating_changes([INITIAL_RATING] * 2, [1, 2], [0, 0])
    assert winner == pytest.approx(360)
    assert loser == pytest.approx(-360)


def test_a_four_bot_match_compares_every_pair() -> None:
    changes = rating_changes([1500.0] * 4, [1, 2, 3, 4], [89] * 4)
    # K = 8 over 3 pairings: the winner scores 3 where 1.5 was expected.
    assert changes == pytest.approx([4.0, 4 / 3, -4 / 3, -4.0])


def test_a_tie_between_equals_changes_nothing() -> None:
    assert rating_changes([1600.0, 1600.0, 1600.0], [1, 1, 1], [3, 3, 3]) == [0.0, 0.0, 0.0]


def test_a_tie_moves_the_lower_rated_bot_up() -> None:
    lower, higher = rating_changes([1400.0, 1600.0], [1, 1], [50, 50])
    assert lower > 0 > higher


def test_expected_score_against_a_bot_400_points_stronger_is_one_eleventh() -> None:
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)


def test_a_match_needs_two_bots_and_matching_lengths() -> None:
    with pytest.raises(ValueError, match="at least two"):
        rating_changes([1500.0], [1], [0])
    with pytest.raises(ValueError, match="one entry per bot"):
        rating_changes([1500.0, 1500.0], [1], [0, 0])


def test_the_band_shrinks_with_games_down_to_its_floor() -> None:
    assert rating_band(0) == pytest.approx(408)
    assert rating_band(3) == pytest.approx(204)
    assert rating_band(100_000) == pytest.approx(42)


def test_a_rating_is_provisional_under_twenty_games() -> None:
    assert is_provisional(19)
    assert not is_provisional(20)


@given(matches(same_games=True))
def test_a_match_is_zero_sum_when_every_bot_has_the_same_k(table: tuple) -> None:
    assert math.fsum(rating_changes(*table)) == pytest.approx(0, abs=1e-6)


@given(matches(), st.data())
def test_the_changes_do_not_depend_on_the_seating_order(table: tuple, data: st.DataObject) -> None:
    ratings, places, games = table
    order = data.draw(st.permutations(range(len(ratings))))
    changes = rating_changes(ratings, places, games)
    shuffled = rating_changes(
        [ratings[i] for i in order], [places[i] for i in order], [games[i] for i in order]
    )
    assert shuffled == pytest.approx([changes[i] for i in order])


@given(ratings_st, ratings_st, games_st, games_st)
def test_a_winner_never_loses_rating_in_a_two_bot_match(
    winner: float, loser: float, winner_games: int, loser_games: int
) -> None:
    gain, loss = rating_changes([winner, loser], [1, 2], [winner_games, loser_games])
    assert gain >= 0
    assert loss <= 0


@given(matches())
def test_no_bot_moves_more_than_its_k(table: tuple) -> None:
    ratings, places, games = table
    for change, played in zip(rating_changes(ratings, places, games), games, strict=True):
        assert abs(change) <= k_factor(played) + 1e-9


@given(matches())
def test_placing_first_alone_never_loses_rating(table: tuple) -> None:
    ratings, places, games = table
    places = [2 + place for place in places]
    places[0] = 1
    assert rating_changes(ratings, places, games)[0] >= 0
