"""Knockout for tables of K seats: round-robin groups whose top finishers meet at a final table.

Entrants are dealt into G groups in snake order of seeds (1, 2, ..., G, G, ...,
2, 1, ...), so the groups are about equally strong; each group plays a
round-robin at K seats; the top K/G of every group advance to one final table
of K seats, played R times with the seats rotated. The final's standing decides
the event; the others rank below the finalists by their place in their group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from string import ascii_uppercase

from arena.tournaments.round_robin import RoundRobin, check_count, check_field
from arena.tournaments.standings import Standing, rank, tally
from arena.tournaments.tables import Table, TableResult, TournamentError, place_points


class _Stage:
    """A round-robin among some entrants, in the event's numbering and schedule."""

    def __init__(self, robin: RoundRobin, members: Sequence[int], offset: int) -> None:
        self.robin, self.members, self.offset = robin, list(members), offset
        self._local = {entrant: index for index, entrant in enumerate(members)}
        self.stage = robin.schedule[0].stage

    def outward(self, table: Table) -> Table:
        seats = tuple(self.members[seat] for seat in table.seats)
        return replace(table, round=table.round + self.offset, seats=seats)

    def inward(self, results: Sequence[TableResult]) -> list[TableResult]:
        return [
            TableResult(
                replace(
                    result.table,
                    round=result.table.round - self.offset,
                    seats=tuple(self._local[e] for e in result.table.seats),
                ),
                result.places,
            )
            for result in results
            if result.table.stage == self.stage
        ]

    def next_tables(self, results: Sequence[TableResult]) -> list[Table]:
        return [self.outward(table) for table in self.robin.next_tables(self.inward(results))]

    def order(self, results: Sequence[TableResult]) -> list[int]:
        """The members from first to last in this stage's standings."""
        return [self.members[line.entrant] for line in self.robin.standings(self.inward(results))]


class GroupsAndFinal:
    """Group round-robins first; the final table once every group is done."""

    def __init__(
        self,
        entrants: int,
        seats: int,
        *,
        groups: int,
        repeat: int = 1,
        seed: int = 0,
        points: Sequence[float] | None = None,
    ) -> None:
        check_field(entrants, seats)
        check_count("groups", groups)
        if seats % groups:
            raise TournamentError(
                f"{groups} groups cannot share a final table of {seats} seats evenly:"
                f" choose a number of groups that divides {seats}"
            )
        if entrants < groups * seats:
            raise TournamentError(
                f"{groups} groups of at least {seats} need {groups * seats} entrants,"
                f" not {entrants}"
            )
        self.entrants, self.seats, self.seed, self.repeat = entrants, seats, seed, repeat
        self.points = place_points(seats, points)
        self.advance = seats // groups
        members: list[list[int]] = [[] for _ in range(groups)]
        for entrant in range(entrants):
            lap, position = divmod(entrant, groups)
            members[position if lap % 2 == 0 else groups - 1 - position].append(entrant)
        self.groups = [
            _Stage(
                RoundRobin(
                    len(group),
                    seats,
                    repeat=repeat,
                    seed=seed,
                    points=points,
                    stage=f"group {ascii_uppercase[index % 26]}{index // 26 or ''}",
                ),
                group,
                0,
            )
            for index, group in enumerate(members)
        ]
        self._final_robin = RoundRobin(seats, seats, repeat=repeat, seed=seed, points=points)
        self._final_robin.schedule = [replace(t, stage="final") for t in self._final_robin.schedule]
        self._final_offset = max(table.round for g in self.groups for table in g.robin.schedule)

    def _final(self, results: Sequence[TableResult]) -> _Stage | None:
        """The final stage, once every group is done (None before)."""
        if any(group.next_tables(results) for group in self.groups):
            return None
        orders = [group.order(results) for group in self.groups]
        finalists = [order[place] for place in range(self.advance) for order in orders]
        return _Stage(self._final_robin, finalists, self._final_offset)

    def next_tables(self, results: Sequence[TableResult]) -> list[Table]:
        pending = [table for group in self.groups for table in group.next_tables(results)]
        if pending:
            return pending
        final = self._final(results)
        return final.next_tables(results) if final else []

    def standings(self, results: Sequence[TableResult]) -> list[Standing]:
        group_place = {
            entrant: place
            for group in self.groups
            for place, entrant in enumerate(group.order(results))
        }
        final = self._final(results)
        final_place = {}
        if final is not None:
            final_place = {entrant: place for place, entrant in enumerate(final.order(results))}
        finished = final is not None and not final.next_tables(results)
        lines = tally(self.entrants, results, self.points)
        for line in lines:
            if line.entrant in final_place:
                line.status = "champion" if finished and final_place[line.entrant] == 0 else "final"
            else:
                line.status = f"group place {group_place[line.entrant] + 1}"
        return rank(
            lines,
            results,
            seed=self.seed,
            first=lambda line: (
                (0, final_place[line.entrant])
                if line.entrant in final_place
                else (1, group_place[line.entrant])
            ),
        )
