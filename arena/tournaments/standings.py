"""Standings from table results, with the tie-breaks every format states.

Entrants rank by points (the total of their place points, byes included); ties
break, in order, by

1. head-to-head: among the tied entrants only, how often each finished ahead
   of another tied entrant at the same table, minus how often behind;
2. Buchholz (Swiss only): the total points of every opponent met at a table;
3. wins (first places, shared firsts included);
4. a draw seeded by the tournament's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby
from typing import Any

from arena.tournaments.tables import TableResult, points_of_places


@dataclass
class Standing:
    """One entrant's line in the standings."""

    entrant: int
    rank: int = 0
    points: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    place_sum: int = 0
    byes: int = 0
    head_to_head: int = 0
    buchholz: Fraction | None = None
    status: str = ""
    """What the format says of the entrant beyond points: "champion", "out in round 2"."""
    opponents: list[int] = field(default_factory=list, repr=False)

    @property
    def mean_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "entrant": self.entrant,
            "rank": self.rank,
            "points": float(self.points),
            "games": self.games,
            "wins": self.wins,
            "mean_place": round(self.mean_place, 4),
            "byes": self.byes,
            "head_to_head": self.head_to_head,
            "buchholz": None if self.buchholz is None else float(self.buchholz),
            "status": self.status,
        }


def draw_order(entrants: int, seed: int) -> list[int]:
    """The seeded draw: entrant -> its position in the draw (lower ranks first)."""
    order = list(range(entrants))
    random.Random(f"draw:{seed}").shuffle(order)
    position = [0] * entrants
    for index, entrant in enumerate(order):
        position[entrant] = index
    return position


def tally(
    entrants: int,
    results: Iterable[TableResult],
    points: Sequence[Fraction],
    *,
    bye_points: dict[int, Fraction] | None = None,
) -> list[Standing]:
    """Each entrant's points, games, wins, places and opponents (unranked)."""
    lines = [Standing(entrant) for entrant in range(entrants)]
    for result in results:
        shares = points_of_places(result.places, points)
        for seat, entrant in enumerate(result.table.seats):
            line = lines[entrant]
            line.points += shares[seat]
            line.games += 1
            line.wins += result.places[seat] == 1
            line.place_sum += result.places[seat]
            line.opponents.extend(other for other in result.table.seats if other != entrant)
    for entrant, earned in (bye_points or {}).items():
        lines[entrant].points += earned
    return lines


def head_to_head(tied: Sequence[int], results: Iterable[TableResult]) -> dict[int, int]:
    """Among `tied` entrants: times ahead of another tied entrant minus times behind."""
    members = set(tied)
    score = dict.fromkeys(tied, 0)
    for result in results:
        present = [e for e in result.table.seats if e in members]
        for entrant in present:
            mine = result.place_of(entrant)
            for other in present:
                theirs = result.place_of(other)
                score[entrant] += (mine < theirs) - (mine > theirs)
    return score


def rank(
    lines: list[Standing],
    results: Sequence[TableResult],
    *,
    seed: int,
    buchholz: bool = False,
    first: Callable[[Standing], tuple[Any, ...]] | None = None,
) -> list[Standing]:
    """Sort `lines` by the stated tie-breaks and number their ranks from 1.

    `first` is a key that outranks points (a knockout's round reached).
    """
    draw = draw_order(len(lines), seed)
    by_entrant = {line.entrant: line for line in lines}
    if buchholz:
        for line in lines:
            line.buchholz = sum((by_entrant[o].points for o in line.opponents), Fraction(0))

    def primary(line: Standing) -> tuple[Any, ...]:
        return (*(first(line) if first else ()), -line.points)

    ordered: list[Standing] = []
    for _, group in groupby(sorted(lines, key=primary), key=primary):
        tied = list(group)
        if len(tied) > 1:
            scores = head_to_head([line.entrant for line in tied], results)
            for line in tied:
                line.head_to_head = scores[line.entrant]
        tied.sort(
            key=lambda line: (
                -line.head_to_head,
                -(line.buchholz or 0),
                -line.wins,
                draw[line.entrant],
            )
        )
        ordered.extend(tied)
    for position, line in enumerate(ordered, start=1):
        line.rank = position
    return ordered
