"""Swiss: similar points meet, no table twice while another pairing exists, fair byes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournaments import TableResult, TournamentError, make_format
from tests.arena.tournaments.tournament_helpers import best_seed_wins, play_out, shuffled_places


def repeat_free_grouping_exists(people: list[int], seats: int, used: set) -> bool:
    if not people:
        return True
    head, rest = people[0], people[1:]
    for companions in combinations(rest, seats - 1):
        if frozenset((head, *companions)) not in used:
            left = [e for e in rest if e not in companions]
            if repeat_free_grouping_exists(left, seats, used):
                return True
    return False


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(2, 3),
    extra=st.integers(0, 5),
    rounds=st.integers(1, 7),
    seed=st.integers(0, 2**32),
)
def test_swiss_never_repeats_a_table_when_another_grouping_exists(seats, extra, rounds, seed):
    entrants = seats * 2 + extra
    event = make_format("swiss", entrants=entrants, seats=seats, rounds=rounds, seed=seed)
    results: list[TableResult] = []
    used: set = set()
    places = shuffled_places(seed)
    while tables := event.next_tables(results):
        playing = sorted(e for table in tables for e in table.seats)
        repeated = [t for t in tables if frozenset(t.seats) in used]
        if repeated:
            assert not repeat_free_grouping_exists(playing, seats, used)
        used |= {frozenset(table.seats) for table in tables}
        results += [TableResult(table, places(table.seats)) for table in tables]
    assert max(table.round for table in (r.table for r in results)) == rounds


@settings(max_examples=40, deadline=None)
@given(entrants=st.integers(2, 11), rounds=st.integers(1, 9), seed=st.integers(0, 2**32))
def test_byes_go_round_before_anyone_has_a_second(entrants, rounds, seed):
    event = make_format("swiss", entrants=entrants, seats=2, rounds=rounds, seed=seed)
    results, _ = play_out(event, shuffled_places(seed))
    byes = [line.byes for line in event.standings(results)]
    assert max(byes) - min(byes) <= 1
    assert sum(byes) == (entrants % 2) * rounds


def test_tables_are_formed_from_entrants_with_similar_points():
    event = make_format("swiss", entrants=8, seats=2, rounds=3, seed=3)
    results, _ = play_out(event, best_seed_wins)
    before = event.standings([r for r in results if r.table.round < 3])
    points = {line.entrant: line.points for line in before}
    for table in (r.table for r in results if r.table.round == 3):
        first, second = table.seats
        assert points[first] == points[second]  # 2-0, 1-1, 1-1 and 0-2 score groups


def test_standings_break_ties_by_buchholz():
    event = make_format("swiss", entrants=4, seats=2, rounds=2, seed=0)
    results, _ = play_out(event, best_seed_wins)
    lines = event.standings(results)
    assert lines[0].entrant == 0
    assert all(line.buchholz is not None for line in lines)
    tied = [line for line in lines if line.points == lines[1].points]
    assert tied == sorted(tied, key=lambda line: (-line.head_to_head, -line.buchholz))


def test_four_seat_swiss_seats_everyone_each_round():
    event = make_format("swiss", entrants=12, seats=4, rounds=3, seed=8)
    results, steps = play_out(event, shuffled_places(8))
    assert steps == 3
    assert set(Counter(e for r in results for e in r.table.seats).values()) == {3}


def test_zero_rounds_is_a_clear_error():
    with pytest.raises(TournamentError, match="rounds must be at least 1"):
        make_format("swiss", entrants=6, seats=2, rounds=0)
    with pytest.raises(TournamentError, match="needs a number of rounds"):
        make_format("swiss", entrants=6, seats=2)
