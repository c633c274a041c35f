"""Round-robin: every entrant meets the others at tables of K seats, each table R times."""

from __future__ import annotations

from collections.abc import Sequence

from arena.tournaments.schedule import plan_tables, seatings
from arena.tournaments.standings import Standing, rank, tally
from arena.tournaments.tables import (
    Table,
    TableResult,
    TournamentError,
    by_key,
    place_points,
)


def check_field(entrants: int, seats: int) -> None:
    """Raise TournamentError unless `entrants` can fill tables of `seats`."""
    if seats < 2:
        raise TournamentError(f"a table needs at least 2 seats, not {seats}")
    if entrants < seats:
        raise TournamentError(
            f"{entrants} entrants cannot fill a table of {seats} seats: enter at least {seats}"
        )


def check_count(name: str, value: int) -> None:
    if value < 1:
        raise TournamentError(f"{name} must be at least 1, not {value}")


class RoundRobin:
    """The whole schedule is known at the start; every table may be played at once.

    `plan` says which tables make it and how evenly they bring pairs together
    (`plan.description` in words).

    Rounds (each entrant at most one table per round) order the schedule for
    people; they are no barrier: `next_tables` returns every unplayed table.
    """

    def __init__(
        self,
        entrants: int,
        seats: int,
        *,
        repeat: int = 1,
        seed: int = 0,
        points: Sequence[float] | None = None,
        stage: str = "",
    ) -> None:
        check_field(entrants, seats)
        check_count("repeat", repeat)
        self.entrants, self.seats, self.seed = entrants, seats, seed
        self.points = place_points(seats, points)
        self.plan = plan_tables(entrants, seats, seed=seed)
        sets = self.plan.tables
        slots = _pack_rounds(sets, entrants)
        per_pass = max(slots) + 1
        orders = seatings(sets, repeat, entrants)
        self.schedule = sorted(
            Table(
                round=play * per_pass + slots[index] + 1,
                stage=stage,
                series=index + 1,
                game=play + 1,
                seats=order,
            )
            for index, plays in enumerate(orders)
            for play, order in enumerate(plays)
        )

    def next_tables(self, results: Sequence[TableResult]) -> list[Table]:
        done = by_key(results)
        return [table for table in self.schedule if table.key not in done]

    def standings(self, results: Sequence[TableResult]) -> list[Standing]:
        return rank(tally(self.entrants, results, self.points), results, seed=self.seed)


def _pack_rounds(tables: Sequence[tuple[int, ...]], entrants: int) -> list[int]:
    """First-fit each table into the earliest round where none of its entrants plays."""
    busy = [0] * entrants  # bit r set: the entrant plays in round r
    slots = []
    for table in tables:
        taken = 0
        for entrant in table:
            taken |= busy[entrant]
        slot = (~taken & (taken + 1)).bit_length() - 1
        for entrant in table:
            busy[entrant] |= 1 << slot
        slots.append(slot)
    return slots
