"""Round-robin: who meets whom, how often, and at which seats."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournaments import TournamentError, make_format
from arena.tournaments.designs.approximate import approximate_tables
from arena.tournaments.schedule import COMPLETE_LIMIT
from tests.arena.tournaments.tournament_helpers import play_out, shuffled_places


def pair_meetings(tables) -> Counter:
    meetings: Counter = Counter()
    for table in tables:
        meetings.update(combinations(sorted(table.seats), 2))
    return meetings


def seat_counts(tables, seats: int) -> dict[int, list[int]]:
    counts: dict[int, list[int]] = {}
    for table in tables:
        for seat, entrant in enumerate(table.seats):
            counts.setdefault(entrant, [0] * seats)[seat] += 1
    return counts


fields = st.integers(2, 6).flatmap(
    lambda seats: st.tuples(st.integers(seats, seats + 6), st.just(seats), st.integers(1, 7))
)


@settings(max_examples=60, deadline=None)
@given(field=fields, seed=st.integers(0, 2**32))
def test_every_pair_meets_equally_often_and_every_table_is_played_repeat_times(field, seed):
    entrants, seats, repeat = field
    event = make_format("round-robin", entrants=entrants, seats=seats, repeat=repeat, seed=seed)
    tables = event.next_tables([])
    meetings = pair_meetings(tables)
    expected = comb(entrants - 2, seats - 2) * repeat
    assert all(meetings[pair] == expected for pair in combinations(range(entrants), 2))
    assert len(tables) == comb(entrants, seats) * repeat


@settings(max_examples=60, deadline=None)
@given(field=fields, seed=st.integers(0, 2**32))
def test_seat_positions_are_balanced(field, seed):
    entrants, seats, repeat = field
    event = make_format("round-robin", entrants=entrants, seats=seats, repeat=repeat, seed=seed)
    for counts in seat_counts(event.next_tables([]), seats).values():
        if repeat % seats == 0:
            assert len(set(counts)) == 1, counts
        else:
            assert max(counts) - min(counts) <= 1, counts


def test_a_field_too_big_for_every_combination_gets_an_exact_design():
    entrants, seats = 64, 4
    assert comb(entrants, seats) > COMPLETE_LIMIT
    event = make_format("round-robin", entrants=entrants, seats=seats, repeat=3, seed=5)
    tables = event.next_tables([])
    assert len(tables) == 336 * 3
    played = Counter(entrant for table in tables for entrant in table.seats)
    assert set(played.values()) == {63}  # 21 tables, each played three times
    meetings = pair_meetings(table for table in tables if table.game == 1)
    assert all(meetings[pair] == 1 for pair in combinations(range(entrants), 2))
    for counts in seat_counts(tables, seats).values():
        assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize("entrants", [21, 22, 23])
def test_entrants_not_filling_whole_tables_play_equally_often_give_or_take_one(entrants):
    played = Counter(e for table in approximate_tables(entrants, 4, seed=1) for e in table)
    assert len(played) == entrants
    assert max(played.values()) - min(played.values()) <= 1


def test_no_entrant_plays_twice_in_one_round():
    event = make_format("round-robin", entrants=7, seats=3, repeat=2)
    rounds = Counter(
        (table.round, entrant) for table in event.next_tables([]) for entrant in table.seats
    )
    assert set(rounds.values()) == {1}


def test_the_same_seed_gives_the_same_schedule_and_standings():
    def run(seed):
        event = make_format("round-robin", entrants=70, seats=3, seed=seed)
        results, _ = play_out(event, shuffled_places(1))
        return event.next_tables([]), [line.as_json() for line in event.standings(results)]

    assert run(4) == run(4)
    assert run(4)[0] != run(5)[0]


def test_every_table_may_be_played_at_once_and_nothing_is_left_after():
    event = make_format("round-robin", entrants=5, seats=2)
    results, steps = play_out(event, shuffled_places(2))
    assert steps == 1 and len(results) == 10
    assert event.next_tables(results) == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"entrants": 3, "seats": 4}, "3 entrants cannot fill a table of 4 seats"),
        ({"entrants": 5, "seats": 2, "repeat": 0}, "repeat must be at least 1"),
        ({"entrants": 5, "seats": 1}, "at least 2 seats"),
        ({"entrants": 5, "seats": 3, "points": [1, 0]}, "need 3 values"),
        ({"entrants": 5, "seats": 3, "points": [0, 1, 2]}, "must not rise"),
    ],
)
def test_bad_input_is_a_clear_error(arguments, message):
    with pytest.raises(TournamentError, match=message):
        make_format("round-robin", **arguments)
