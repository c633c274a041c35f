"""Which entrants share a table in a round-robin, and in which seats.

The tables (each a set of K entrants) come from the first of these that applies:

- the **complete design**: every combination of K entrants, once. Every pair
  of entrants meets exactly C(N-2, K-2) times. Used while there are at most
  `COMPLETE_LIMIT` combinations, and always for tables of 2 (every pair once).
- an **exact design** (`arena.tournaments.designs`) beyond that: a 2-(N, K, 1)
  design, where every pair meets exactly once. The seed decides which entrant
  stands on which point of the design.
- an **approximately balanced schedule** when no such design is at hand
  (`arena.tournaments.designs.approximate`): every entrant plays the same
  number of tables (give or take one when N is not a multiple of K), and pairs
  meet about equally often but not exactly; the plan's description gives the
  measured fewest and most meetings of a pair.

Each table is then played R times. Seats: every full K repeats of a table are
its K rotations, so when R is a multiple of K every entrant sits at every seat
exactly equally often; otherwise each entrant's counts at any two seats differ
by at most one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from arena.tournaments.designs import could_exist, exact_design
from arena.tournaments.designs.approximate import approximate_tables

COMPLETE_LIMIT = 2000
"""Most tables a complete design may have before a design of fewer tables is used."""


@dataclass(frozen=True)
class TablePlan:
    """A round-robin's tables, and how evenly they bring the entrants together."""

    tables: list[tuple[int, ...]]
    """Each table's entrants, sorted."""
    exact: bool
    """True if every pair of entrants meets equally often."""
    fewest: int
    most: int
    """The fewest and most tables any pair of entrants shares."""
    description: str
    """The plan in words, for the people entering."""


def plan_tables(entrants: int, seats: int, *, seed: int) -> TablePlan:
    """The round-robin's tables: complete, an exact design or approximately balanced."""
    if seats == 2 or comb(entrants, seats) <= COMPLETE_LIMIT:
        tables = list(combinations(range(entrants), seats))
        each = comb(entrants - 2, seats - 2)
        return TablePlan(
            tables,
            exact=True,
            fewest=each,
            most=each,
            description=f"every combination of {seats} of the {entrants} entrants:"
            f" every pair meets {_times(each)}",
        )
    design = exact_design(entrants, seats)
    if design is not None:
        names = list(range(entrants))
        random.Random(f"design:{seed}").shuffle(names)
        return TablePlan(
            [tuple(sorted(names[point] for point in block)) for block in design.blocks],
            exact=True,
            fewest=design.meetings,
            most=design.meetings,
            description=f"{design.name}: every pair meets exactly {_times(design.meetings)}",
        )
    tables = approximate_tables(entrants, seats, seed=seed)
    meetings = Counter(pair for table in tables for pair in combinations(table, 2))
    counts = [meetings[pair] for pair in combinations(range(entrants), 2)]
    fewest, most = min(counts), max(counts)
    once = sum(count == 1 for count in counts) / len(counts)
    why = "is built here" if could_exist(entrants, seats) else "exists"
    return TablePlan(
        tables,
        exact=False,
        fewest=fewest,
        most=most,
        description=f"no 2-({entrants}, {seats}, 1) design {why}: an approximately balanced"
        f" schedule where a pair meets {fewest} to {most} times ({once:.0%} of pairs once)",
    )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def seatings(
    tables: Sequence[tuple[int, ...]], repeat: int, entrants: int
) -> list[list[tuple[int, ...]]]:
    """For each table, its `repeat` seat orders.

    The first R - R mod K plays of a table are its rotations, each equally
    often; the other plays start as rotations and are then rebalanced so every
    entrant's count at each seat differs from its count at any other by at most one.
    """
    seats = len(tables[0])
    full, rest = divmod(repeat, seats)
    extra = [list(table[shift:] + table[:shift]) for table in tables for shift in range(rest)]
    balance_seats(extra, seats, entrants)
    return [
        [table[r % seats :] + table[: r % seats] for r in range(full * seats)]
        + [tuple(order) for order in extra[index * rest : (index + 1) * rest]]
        for index, table in enumerate(tables)
    ]


def balance_seats(plays: list[list[int]], seats: int, entrants: int) -> None:
    """Reseat `plays` in place until no entrant sits at one seat 2+ times more than another.

    The method is de Werra's equitable edge colouring of a bipartite graph (plays
    and entrants; a seat is a colour): while some entrant sits at seat a at
    least twice more than at seat b, the entrants at seats a and b of every
    play are swapped along Euler trails so that every entrant's a and b counts
    differ by at most one. The sum of squared seat counts falls each time, so it ends.
    """
    counts = [[0] * seats for _ in range(entrants)]
    for order in plays:
        for seat, entrant in enumerate(order):
            counts[entrant][seat] += 1
    while True:
        uneven = next(
            (
                (row.index(max(row)), row.index(min(row)))
                for row in counts
                if max(row) - min(row) >= 2
            ),
            None,
        )
        if uneven is None:
            return
        high, low = uneven
        edges = [(order[high], order[low]) for order in plays]
        oriented = balanced_orientation(edges, entrants)
        for order, (at_high, at_low) in zip(plays, oriented, strict=True):
            for entrant, seat in ((order[high], high), (order[low], low)):
                counts[entrant][seat] -= 1
            order[high], order[low] = at_high, at_low
            counts[at_high][high] += 1
            counts[at_low][low] += 1


def balanced_orientation(edges: list[tuple[int, int]], vertices: int) -> list[tuple[int, int]]:
    """Orient each edge so every vertex's out- and in-degree differ by at most one.

    Odd-degree vertices are joined to a dummy vertex, which makes every degree
    even; following Euler circuits then leaves each vertex as often as it
    enters, and dropping the dummy edges costs each vertex at most one.
    """
    dummy = vertices
    ends = list(edges)
    degree = [0] * (vertices + 1)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    ends += [(vertex, dummy) for vertex in range(vertices) if degree[vertex] % 2]
    incident: list[list[int]] = [[] for _ in range(vertices + 1)]
    for index, (a, b) in enumerate(ends):
        incident[a].append(index)
        incident[b].append(index)
    used = [False] * len(ends)
    oriented: list[tuple[int, int]] = [(0, 0)] * len(ends)
    for start in range(vertices + 1):
        stack = [start]
        while stack:  # Hierholzer: walk unused edges, orienting each as it is taken
            vertex = stack[-1]
            while incident[vertex] and used[incident[vertex][-1]]:
                incident[vertex].pop()
            if not incident[vertex]:
                stack.pop()
                continue
            index = incident[vertex].pop()
            used[index] = True
            a, b = ends[index]
            following = b if a == vertex else a
            oriented[index] = (vertex, following)
            stack.append(following)
    return oriented[: len(edges)]
