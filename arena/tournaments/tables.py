"""The vocabulary every tournament format shares: tables, their results, place points.

Entrants are numbered 0 to N-1 in seed order (0 is the best seed); a caller maps
its own bots or entries onto those numbers. A format never plays a match: it
names the tables to play, and reads back each table's places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise


class TournamentError(ValueError):
    """A tournament that cannot be run as asked: too few entrants, 0 rounds, and so on."""


@dataclass(frozen=True, order=True)
class Table:
    """One match of a tournament: who sits where, and where it belongs in the schedule.

    `round` orders the schedule; `stage` names a part of the event ("" for a
    plain round-robin or Swiss, "W"/"L"/"final" in a double elimination,
    "group A" in a group stage); `series` numbers the tables of one round and
    stage (a knockout series, or a round-robin table); `game` numbers the
    repeats of that table (the games of a best-of series, or the repeats of a
    round-robin table). `seats` lists entrants in seat order.
    """

    round: int
    stage: str
    series: int
    game: int
    seats: tuple[int, ...]

    @property
    def key(self) -> str:
        """A name unique within the tournament, stable across scheduler runs."""
        stage = f"{self.stage}-" if self.stage else ""
        return f"r{self.round}-{stage}s{self.series}-g{self.game}"


@dataclass(frozen=True)
class TableResult:
    """A played table: its `places` per seat (1 = first; equal numbers are a tie)."""

    table: Table
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        count = len(self.table.seats)
        if len(self.places) != count or any(
            place != 1 + sum(other < place for other in self.places) for place in self.places
        ):
            raise TournamentError(
                f"table {self.table.key} has {count} seats: places {self.places} do not fit"
            )

    def place_of(self, entrant: int) -> int:
        return self.places[self.table.seats.index(entrant)]


def place_points(seats: int, points: Sequence[float] | None = None) -> tuple[Fraction, ...]:
    """Points for first to last place; by default K-1 for first down to 0 for last."""
    if points is None:
        return tuple(Fraction(seats - 1 - place) for place in range(seats))
    if len(points) != seats:
        raise TournamentError(f"points per place need {seats} values (one per seat), not {points}")
    values = tuple(Fraction(value).limit_denominator(1000) for value in points)
    if any(later > earlier for earlier, later in pairwise(values)):
        raise TournamentError(f"points per place must not rise from first to last: {points}")
    return values


def points_of_places(places: Sequence[int], points: Sequence[Fraction]) -> list[Fraction]:
    """Each seat's points; tied seats share the points of the places they span."""
    shares = []
    for place in places:
        tied = places.count(place)
        shares.append(sum(points[place - 1 : place - 1 + tied], Fraction(0)) / tied)
    return shares


def by_key(results: Sequence[TableResult]) -> dict[str, TableResult]:
    """Results by their table's key; a key given twice keeps the first result."""
    found: dict[str, TableResult] = {}
    for result in results:
        found.setdefault(result.table.key, result)
    return found
