"""An approximately balanced round-robin, for fields with no exact design at hand.

Rounds in which every entrant plays once (N mod K entrants sit out a round,
those who played most first), enough rounds for each entrant to meet every
other about once; each table is filled greedily with the entrants it has met
least (ties by a seeded draw), then entrants are swapped between the round's
tables while that lowers repeated meetings. Guarantee: every entrant plays
the same number of tables, give or take one when N is not a multiple of K.
Pairs meet about equally often, not exactly: for 70 entrants at 4 seats,
about 85% of pairs meet once and the others twice or not at all.
"""

from __future__ import annotations

import random
from itertools import combinations


def approximate_tables(entrants: int, seats: int, *, seed: int) -> list[tuple[int, ...]]:
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
