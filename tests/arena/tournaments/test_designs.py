"""Exact designs for large round-robins: every pair meets exactly λ times, seats balanced."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournaments import make_format
from arena.tournaments.designs import could_exist, exact_design
from arena.tournaments.designs.fields import finite_field
from arena.tournaments.schedule import COMPLETE_LIMIT

AFFINE = [(q**n, q) for q in (2, 3, 4, 5, 7, 8, 9) for n in range(2, 8) if q**n <= 300]
PROJECTIVE = [
    ((q ** (n + 1) - 1) // (q - 1), q + 1)
    for q in (2, 3, 4, 5, 7, 8, 9)
    for n in range(2, 8)
    if (q ** (n + 1) - 1) // (q - 1) <= 300
]
TRIPLES = [(v, 3) for v in range(7, 200) if v % 6 in (1, 3)]
CYCLIC = [(37, 4), (49, 4), (61, 4), (85, 4), (41, 5)]
DESIGNS = sorted(set(AFFINE + PROJECTIVE + TRIPLES + CYCLIC))
LARGE = [(v, k) for v, k in DESIGNS if comb(v, k) > COMPLETE_LIMIT and v <= 130 and k > 2]


def pair_meetings(tables) -> Counter:
    return Counter(pair for table in tables for pair in combinations(sorted(table), 2))


@pytest.mark.parametrize(("points", "size"), DESIGNS)
def test_every_pair_of_points_lies_in_exactly_one_block(points, size):
    design = exact_design(points, size)
    assert design is not None and design.meetings == 1
    assert all(len(set(block)) == size for block in design.blocks)
    assert {point for block in design.blocks for point in block} == set(range(points))
    meetings = pair_meetings(design.blocks)
    assert len(meetings) == comb(points, 2) and set(meetings.values()) == {1}


@pytest.mark.parametrize("order", [2, 3, 4, 5, 7, 8, 9, 16])
def test_a_finite_field_has_inverses_and_distributes(order):
    field = finite_field(order)
    elements = range(order)
    assert all(field.mul[x][field.inverse(x)] == 1 for x in elements if x)
    assert all(
        field.mul[a][field.add[b][c]] == field.add[field.mul[a][b]][field.mul[a][c]]
        for a in elements
        for b in elements
        for c in elements
    )


@settings(max_examples=40, deadline=None)
@given(field=st.sampled_from(LARGE), repeat=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_in_a_designed_round_robin_every_pair_meets_equally_often_and_seats_are_balanced(
    field, repeat, seed
):
    entrants, seats = field
    event = make_format("round-robin", entrants=entrants, seats=seats, repeat=repeat, seed=seed)
    assert event.plan.exact and "exactly once" in event.plan.description
    tables = event.next_tables([])
    meetings = pair_meetings(table.seats for table in tables)
    assert len(meetings) == comb(entrants, 2) and set(meetings.values()) == {repeat}
    played = Counter(entrant for table in tables for entrant in table.seats)
    assert set(played.values()) == {repeat * (entrants - 1) // (seats - 1)}
    by_table: dict[int, list[tuple[int, ...]]] = {}
    for table in tables:
        by_table.setdefault(table.series, []).append(table.seats)
    for plays in by_table.values():  # the first K·⌊R/K⌋ plays are the table's rotations
        first = plays[0]
        rotations = {first[shift:] + first[:shift] for shift in range(seats)}
        assert set(plays[: repeat - repeat % seats]) <= rotations
    counts: dict[int, list[int]] = {}
    for table in tables:
        for seat, entrant in enumerate(table.seats):
            counts.setdefault(entrant, [0] * seats)[seat] += 1
    for row in counts.values():
        assert max(row) - min(row) <= (0 if repeat % seats == 0 else 1), row


def test_two_seat_round_robins_are_always_every_pair_once():
    event = make_format("round-robin", entrants=70, seats=2, seed=3)
    assert comb(70, 2) > COMPLETE_LIMIT and event.plan.exact
    assert set(pair_meetings(t.seats for t in event.next_tables([])).values()) == {1}


def test_the_seed_decides_who_stands_on_which_point_of_the_design():
    def tables(seed):
        return make_format("round-robin", entrants=64, seats=4, seed=seed).plan.tables

    assert tables(1) == tables(1)
    assert sorted(tables(1)) != sorted(tables(2))


def test_the_affine_geometry_plays_in_rounds_where_everyone_plays_once():
    event = make_format("round-robin", entrants=64, seats=4, repeat=2, seed=9)
    rounds = Counter(
        (table.round, entrant) for table in event.next_tables([]) for entrant in table.seats
    )
    assert set(rounds.values()) == {1}
    assert len({round_ for round_, _ in rounds}) == 2 * 21
    assert len(rounds) == 2 * 21 * 64


@pytest.mark.parametrize(
    ("entrants", "seats", "why"), [(70, 4, "exists"), (73, 4, "is built here")]
)
def test_without_a_design_the_schedule_says_so_and_measures_its_spread(entrants, seats, why):
    event = make_format("round-robin", entrants=entrants, seats=seats, seed=1)
    plan = event.plan
    assert not plan.exact and could_exist(entrants, seats) == (why != "exists")
    meetings = pair_meetings(plan.tables)
    counts = [meetings[pair] for pair in combinations(range(entrants), 2)]
    assert (plan.fewest, plan.most) == (min(counts), max(counts)) and plan.most > plan.fewest
    assert f"no 2-({entrants}, {seats}, 1) design {why}" in plan.description
    assert f"meets {plan.fewest} to {plan.most} times" in plan.description
    assert "exactly" not in plan.description
