"""Win-rate intervals and per-bot tallies."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from arena.stats import BotTally, wilson_interval


@given(
    st.integers(min_value=1, max_value=10_000).flatmap(
        lambda n: st.tuples(st.integers(0, n), st.just(n))
    )
)
def test_the_interval_lies_in_0_1_and_holds_the_observed_rate(wins_and_games):
    wins, games = wins_and_games
    low, high = wilson_interval(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0


def test_the_interval_narrows_as_games_grow():
    small = wilson_interval(5, 10)
    large = wilson_interval(500, 1000)
    assert large[1] - large[0] < small[1] - small[0]


def test_a_known_interval():
    low, high = wilson_interval(40, 100)
    assert round(low, 3) == 0.309 and round(high, 3) == 0.498


def test_no_games_gives_the_whole_range():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_a_tally_counts_wins_places_and_penalties():
    tally = BotTally("bot")
    tally.add(place=1, infractions=0, crashed=False)
    tally.add(place=3, infractions=2, crashed=True)
    assert (tally.games, tally.wins, tally.infractions, tally.crashes) == (2, 1, 2, 1)
    assert tally.mean_place == 2.0
    assert tally.as_json()["mean_place"] == 2.0


def test_a_tally_keeps_a_few_distinct_notes_and_the_first_crash_log():
    tally = BotTally("bot")
    for _ in range(3):
        tally.note("infraction: late")
    tally.note("crash: died", log="first log")
    tally.note("crash: again", log="second log")
    tally.note("one too many")
    assert tally.notes == ["infraction: late", "crash: died", "crash: again"]
    assert tally.log_tail == "first log"
