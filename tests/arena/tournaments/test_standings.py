"""Points per place, shared places, and the stated tie-breaks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arena.tournaments import Table, TableResult, TournamentError, make_format
from arena.tournaments.tables import place_points, points_of_places


def test_default_points_run_from_k_minus_one_down_to_zero():
    assert place_points(4) == (3, 2, 1, 0)


def test_tied_seats_share_the_points_of_the_places_they_span():
    assert points_of_places((1, 1, 3, 4), place_points(4)) == [Fraction(5, 2)] * 2 + [1, 0]


def test_places_that_no_match_could_give_are_refused():
    with pytest.raises(TournamentError, match="do not fit"):
        TableResult(Table(1, "", 1, 1, (0, 1, 2)), (1, 2, 2, 3))
    with pytest.raises(TournamentError, match="do not fit"):
        TableResult(Table(1, "", 1, 1, (0, 1)), (2, 2))


def test_custom_points_decide_the_standings():
    event = make_format("round-robin", entrants=3, seats=3, repeat=3, points=[5, 0, 0])
    tables = event.next_tables([])
    # entrant 0 wins once; entrant 1 is second every time and third never
    results = [
        TableResult(tables[0], tuple({0: 1, 1: 2, 2: 3}[e] for e in tables[0].seats)),
        TableResult(tables[1], tuple({2: 1, 1: 2, 0: 3}[e] for e in tables[1].seats)),
        TableResult(tables[2], tuple({2: 1, 1: 2, 0: 3}[e] for e in tables[2].seats)),
    ]
    lines = event.standings(results)
    assert [line.entrant for line in lines] == [2, 0, 1]
    assert [float(line.points) for line in lines] == [10, 5, 0]


def test_head_to_head_breaks_a_tie_on_points():
    event = make_format("round-robin", entrants=3, seats=2)
    results = []
    for table in event.next_tables([]):
        winner = {frozenset({0, 1}): 0, frozenset({1, 2}): 1, frozenset({0, 2}): 2}
        first = winner[frozenset(table.seats)]
        results.append(TableResult(table, tuple(1 if e == first else 2 for e in table.seats)))
    # a three-way tie on points and head-to-head: the seeded draw decides, the same each time
    orders = {tuple(line.entrant for line in event.standings(results)) for _ in range(3)}
    assert len(orders) == 1
    partial = [r for r in results if set(r.table.seats) != {0, 2}]
    lines = event.standings(partial)
    assert [line.entrant for line in lines][:2] == [0, 1]
    assert lines[0].points == lines[1].points and lines[0].head_to_head > lines[1].head_to_head
