"""Which entrants share a table in a round-robin, and in which seats.

Two ways to choose the tables (each a set of K entrants):

- the **complete design**: every combination of K entrants, once. Every pair
  of entrants meets exactly C(N-2, K-2) times. Used while there are at most
  `COMPLETE_LIMIT` combinations.
- the **balanced design**, beyond that: rounds in which every entrant plays
  once (N mod K entrants sit out a round, those who played most first), enough
  rounds for each entrant to meet every other about once; each table is filled
  greedily with the entrants it has met least (ties by a seeded draw), then
  entrants are swapped between the round's tables while that lowers repeated
  meetings. Guarantee: every entrant plays the same number of tables, give or
  take one when N is not a multiple of K. Pairs meet about equally often, not
  exactly: for 64 entrants at 4 seats, 85% of pairs meet once and the others
  twice or not at all.

Each table is then played R times. Seats: every full K repeats of a table are
its K rotations, so when R is a multiple of K every entrant sits at every seat
exactly equally often; otherwise each entrant's counts at any two seats differ
by at most one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from math import comb

COMPLETE_LIMIT = 2000
"""Most tables a complete design may have before the balanced design is used."""


def table_sets(entrants: int, seats: int, *, seed: int) -> list[tuple[int, ...]]:
    """The round-robin's tables, each a sorted tuple of entrants."""
    if comb(entrants, seats) <= COMPLETE_LIMIT:
        return list(combinations(range(entrants), seats))
    return balanced_tables(entrants, seats, seed=seed)


def balanced_tables(entrants: int, seats: int, *, seed: int) -> list[tuple[int, ...]]:
    """Rounds of tables where every pair meets about once (see the module docstring)."""
    draw = random.Random(f"balanced:{seed}")
    per_round = entrants // seats
    wanted = -(-(entrants - 1) // (seats - 1))  # tables per entrant to meet everyone once
    rounds = -(-(wanted * entrants) // (per_round * seats))
    met = [[0] * entrants for _ in range(entrants)]
    played = [0] * entrants
    tables: list[tuple[int, ...]] = []
    for _ in range(rounds):
        order = list(range(entrants))
        draw.shuffle(order)
        order.sort(key=played.__getitem__)  # who has played least plays first
        round_tables = _fill_round(order[: per_round * seats], seats, met)
        _improve_round(round_tables, met)
        for table in round_tables:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
            for member in table:
                played[member] += 1
            tables.append(tuple(sorted(table)))
    return tables


def _fill_round(pool: list[int], seats: int, met: list[list[int]]) -> list[list[int]]:
    """Seat the pool table by table, each newcomer the one its table has met least."""
    tables = []
    while pool:
        table = [pool.pop(0)]
        while len(table) < seats:
            best = min(range(len(pool)), key=lambda i: sum(met[pool[i]][m] for m in table))
            table.append(pool.pop(best))
        tables.append(table)
    return tables


def _improve_round(tables: list[list[int]], met: list[list[int]], passes: int = 3) -> None:
    """Swap entrants between tables while a swap lowers the round's repeated meetings.

    Only an entrant who has already met someone at its table can gain from a
    swap, so each seat's count of such meetings is kept, and pairs of seats
    where both are zero are skipped.
    """

    def costs(table: list[int]) -> list[int]:
        return [sum(met[entrant][other] for other in table) for entrant in table]

    owed = [costs(table) for table in tables]
    for _ in range(passes):
        improved = False
        for one, two in combinations(range(len(tables)), 2):
            first, second = tables[one], tables[two]
            for i in range(len(first)):
                for j in range(len(second)):
                    before = owed[one][i] + owed[two][j]
                    if before == 0:
                        continue
                    a, b = first[i], second[j]
                    met_a, met_b = met[a], met[b]
                    after = sum(met_b[x] for x in first if x != a) + sum(
                        met_a[y] for y in second if y != b
                    )
                    if after < before:
                        first[i], second[j] = b, a
                        owed[one], owed[two] = costs(first), costs(second)
                        improved = True
        if not improved:
            return


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
