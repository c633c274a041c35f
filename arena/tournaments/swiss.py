"""Swiss: N rounds, each round's tables formed from entrants with similar points.

Each round ranks the entrants by points so far (ties by the seeded draw) and
seats them at tables of K with the least total spread of points (a table's best
minus its worst), never repeating a table already played (the same set of
entrants) while a grouping without a repeat exists. The search is exact up to
`SEARCH_LIMIT` steps per round (`IMPROVE_LIMIT` once a grouping is found), which
fields of a dozen entrants stay below; past it the best grouping found so far is
taken, or the rank order as is.

When N is not a multiple of K, N mod K entrants sit the round out. Byes go to
entrants with the fewest byes so far, the lowest-ranked first, and a bye earns
the mean of the place points (1 for three seats, 0.5 for two).
Within a table, whoever has sat at later seats so far sits first.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import suppress
from fractions import Fraction
from itertools import combinations
from typing import Any

from arena.tournaments.round_robin import check_count, check_field
from arena.tournaments.standings import Standing, draw_order, rank, tally
from arena.tournaments.tables import Table, TableResult, by_key, place_points, points_of_places

SEARCH_LIMIT = 20_000
IMPROVE_LIMIT = 2_000
"""Steps the search may spend bettering a grouping once it has one."""


class _SearchExhausted(Exception):
    pass


class Swiss:
    """Rounds are played one at a time: round r+1 is formed from round r's results."""

    def __init__(
        self,
        entrants: int,
        seats: int,
        *,
        rounds: int,
        seed: int = 0,
        points: Sequence[float] | None = None,
    ) -> None:
        check_field(entrants, seats)
        check_count("rounds", rounds)
        self.entrants, self.seats, self.rounds, self.seed = entrants, seats, rounds, seed
        self.points = place_points(seats, points)
        self.bye_points = sum(self.points, Fraction(0)) / seats
        self._draw = draw_order(entrants, seed)

    def next_tables(self, results: Sequence[TableResult]) -> list[Table]:
        return self._replay(results)[0]

    def standings(self, results: Sequence[TableResult]) -> list[Standing]:
        byes = self._replay(results)[1]
        earned = {entrant: count * self.bye_points for entrant, count in enumerate(byes)}
        lines = tally(self.entrants, results, self.points, bye_points=earned)
        for line in lines:
            line.byes = byes[line.entrant]
        return rank(lines, results, seed=self.seed, buchholz=True)

    def _replay(self, results: Sequence[TableResult]) -> tuple[list[Table], list[int]]:
        """Form the rounds again from the results: (tables still to play, byes so far)."""
        done = by_key(results)
        points = [Fraction(0)] * self.entrants
        byes = [0] * self.entrants
        seat_sums = [0] * self.entrants
        used: set[frozenset[int]] = set()
        for number in range(1, self.rounds + 1):
            ranked = sorted(range(self.entrants), key=lambda e: (-points[e], self._draw[e]))
            groups, out = self.pair(ranked, points, used, byes)
            tables = [
                Table(number, "", index, 1, tuple(sorted(group, key=lambda e: -seat_sums[e])))
                for index, group in enumerate(groups, start=1)
            ]
            pending = [table for table in tables if table.key not in done]
            if pending:
                return pending, byes
            for entrant in out:
                byes[entrant] += 1
                points[entrant] += self.bye_points
            for table in tables:
                result = done[table.key]
                used.add(frozenset(table.seats))
                for seat, share in enumerate(points_of_places(result.places, self.points)):
                    entrant = table.seats[seat]
                    points[entrant] += share
                    seat_sums[entrant] += seat
        return [], byes

    def pair(
        self,
        ranked: list[int],
        points: Sequence[Fraction],
        used: set[frozenset[int]],
        byes: list[int],
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """One round's tables and who sits out: no repeated table, the least spread of points."""
        budget = [SEARCH_LIMIT]
        options = list(self._bye_options(ranked, byes))
        for out in options:
            playing = [e for e in ranked if e not in out]
            groups = _partition(playing, self.seats, used, points, budget)
            if groups is not None:
                return groups, list(out)
        playing = [e for e in ranked if e not in options[0]]
        groups = [tuple(playing[i : i + self.seats]) for i in range(0, len(playing), self.seats)]
        return groups, list(options[0])

    def _bye_options(self, ranked: list[int], byes: list[int]) -> Iterator[tuple[int, ...]]:
        """The fair sets of entrants to sit out: fewest byes first, lowest-ranked first."""
        extra = len(ranked) % self.seats
        if not extra:
            yield ()
            return
        order = sorted(reversed(ranked), key=byes.__getitem__)  # stable: lowest rank first
        threshold = byes[order[extra - 1]]
        certain = tuple(e for e in order if byes[e] < threshold)
        maybe = [e for e in order if byes[e] == threshold]
        for chosen in combinations(maybe, extra - len(certain)):
            yield certain + chosen


def _partition(
    order: list[int],
    seats: int,
    used: set[frozenset[int]],
    points: Sequence[Fraction],
    budget: list[int],
) -> list[tuple[int, ...]] | None:
    """Group `order` into tables of `seats`, none of them in `used`, with the least
    total spread of points (each table's best minus worst); None if no such grouping.

    A depth-first search, nearest ranks first, that prunes groupings no better than
    the best found; once it has one it spends at most `IMPROVE_LIMIT` more steps,
    and when the budget runs out the best found so far is kept.
    """
    best: list[Any] = [None, None]  # total spread, tables

    def walk(order: list[int], chosen: list[tuple[int, ...]], spread: Fraction) -> None:
        if not order:
            best[:] = [spread, list(chosen)]
            budget[0] = min(budget[0], IMPROVE_LIMIT)
            return
        head, rest = order[0], order[1:]
        for companions in combinations(rest, seats - 1):
            budget[0] -= 1
            if budget[0] < 0:
                raise _SearchExhausted
            table = (head, *companions)
            total = spread + points[head] - min(points[e] for e in companions)
            if frozenset(table) in used or (best[0] is not None and total >= best[0]):
                continue
            chosen.append(table)
            taken = set(companions)
            walk([e for e in rest if e not in taken], chosen, total)
            chosen.pop()

    with suppress(_SearchExhausted):
        walk(order, [], Fraction(0))
    tables: list[tuple[int, ...]] | None = best[1]
    return tables
