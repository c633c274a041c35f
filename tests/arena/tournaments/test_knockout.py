"""Knockout: every bracket ends with one champion; series, seeds and groups."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournaments import TournamentError, make_format
from tests.arena.tournaments.tournament_helpers import best_seed_wins, play_out, shuffled_places


def draws_sometimes(seed: int):
    """Places at random, a tie (1, 1) now and then."""
    shuffled = shuffled_places(seed)
    count = Counter()

    def places(seats):
        count["tables"] += 1
        return (1, 1) if count["tables"] % 5 == 0 else shuffled(seats)

    return places


@settings(max_examples=80, deadline=None)
@given(
    entrants=st.integers(2, 20),
    best_of=st.sampled_from([1, 3, 5]),
    elimination=st.sampled_from(["single", "double"]),
    seed=st.integers(0, 2**32),
)
def test_a_knockout_bracket_always_yields_one_champion(entrants, best_of, elimination, seed):
    event = make_format(
        "knockout", entrants=entrants, seats=2, best_of=best_of, elimination=elimination
    )
    results, _ = play_out(event, draws_sometimes(seed))
    lines = event.standings(results)
    assert [line.status for line in lines].count("champion") == 1
    assert lines[0].status == "champion"
    assert {line.entrant for line in lines} == set(range(entrants))


@pytest.mark.parametrize("entrants", [2, 5, 8, 13])
def test_the_best_seed_wins_a_single_elimination_it_always_wins_its_games_in(entrants):
    event = make_format("knockout", entrants=entrants, seats=2, best_of=3)
    results, _ = play_out(event, best_seed_wins)
    assert event.standings(results)[0].entrant == 0
    assert all(len(r.table.seats) == 2 for r in results)
    assert len(results) == 2 * (entrants - 1)  # every series won 2-0


def test_top_seeds_have_first_round_byes_and_meet_the_worst_seeds():
    event = make_format("knockout", entrants=6, seats=2)
    first = event.next_tables([])
    assert sorted(sorted(t.seats) for t in first) == [[2, 5], [3, 4]]


def test_a_best_of_series_alternates_seats_and_stops_once_decided():
    event = make_format("knockout", entrants=2, seats=2, best_of=5)
    first = event.next_tables([])
    assert [t.seats for t in first] == [(0, 1), (1, 0), (0, 1)]
    results, _ = play_out(event, best_seed_wins)
    assert len(results) == 3


def test_double_elimination_gives_a_loser_a_second_life():
    event = make_format("knockout", entrants=4, seats=2, elimination="double")
    results, _ = play_out(
        event,
        lambda seats: (
            (1, 2)
            if 3 in seats and seats[0] == 3
            else (2, 1)
            if 3 in seats
            else best_seed_wins(seats)
        ),
    )
    lines = event.standings(results)
    assert lines[0].entrant == 3
    assert Counter(r.table.stage for r in results)["final"] >= 1


def test_groups_send_their_top_finishers_to_one_final_table():
    event = make_format("knockout", entrants=16, seats=4, groups=2, repeat=4, seed=2)
    results, steps = play_out(event, best_seed_wins)
    assert steps == 2
    final = [r.table for r in results if r.table.stage == "final"]
    assert len(final) == 4 and {frozenset(t.seats) for t in final} == {frozenset({0, 1, 2, 3})}
    lines = event.standings(results)
    assert [line.entrant for line in lines[:4]] == [0, 1, 2, 3]
    assert lines[0].status == "champion"
    assert {r.table.stage for r in results} == {"group A", "group B", "final"}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"entrants": 8, "seats": 4}, "needs groups"),
        ({"entrants": 8, "seats": 4, "groups": 3}, "cannot share a final table"),
        ({"entrants": 7, "seats": 4, "groups": 2}, "need 8 entrants"),
        ({"entrants": 1, "seats": 2}, "2 entrants cannot fill|at least 2 entrants"),
        ({"entrants": 8, "seats": 2, "best_of": 2}, "odd number of games"),
        ({"entrants": 8, "seats": 2, "elimination": "triple"}, "single or double"),
    ],
)
def test_bad_input_is_a_clear_error(arguments, message):
    with pytest.raises(TournamentError, match=message):
        make_format("knockout", **arguments)


def test_an_unknown_format_is_named():
    with pytest.raises(TournamentError, match="unknown format 'league'"):
        make_format("league", entrants=4, seats=2)
