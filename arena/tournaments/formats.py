"""The formats by name, and the one interface the command line and the server drive.

A format is built from the number of entrants (numbered in seed order), the
seats per table and its parameters. It never plays anything:
`next_tables(results)` names the tables that may be played now and have no
result yet (an empty list once the event is over), and `standings(results)`
ranks the entrants. Both read only the results given, so a server can build
the format again at every step and a crash loses nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from arena.tournaments.groups import GroupsAndFinal
from arena.tournaments.knockout import DoubleElimination, SingleElimination
from arena.tournaments.round_robin import RoundRobin
from arena.tournaments.standings import Standing
from arena.tournaments.swiss import Swiss
from arena.tournaments.tables import Table, TableResult, TournamentError

FORMAT_NAMES = ("round-robin", "swiss", "knockout")
ELIMINATIONS = ("single", "double")


class Format(Protocol):
    entrants: int
    seats: int

    def next_tables(self, results: Sequence[TableResult]) -> list[Table]: ...

    def standings(self, results: Sequence[TableResult]) -> list[Standing]: ...


def make_format(
    name: str,
    *,
    entrants: int,
    seats: int,
    rounds: int | None = None,
    repeat: int = 1,
    best_of: int = 1,
    elimination: str = "single",
    groups: int | None = None,
    seed: int = 0,
    points: Sequence[float] | None = None,
) -> Format:
    """Build the format `name`; raise TournamentError for anything it cannot run.

    `rounds` is for Swiss; `repeat` plays each round-robin table (and a group
    final) that many times; `best_of`, `elimination` and `groups` are for knockout.
    """
    if name == "round-robin":
        return RoundRobin(entrants, seats, repeat=repeat, seed=seed, points=points)
    if name == "swiss":
        if rounds is None:
            raise TournamentError("a Swiss tournament needs a number of rounds")
        return Swiss(entrants, seats, rounds=rounds, seed=seed, points=points)
    if name == "knockout":
        if groups is not None:
            return GroupsAndFinal(
                entrants, seats, groups=groups, repeat=repeat, seed=seed, points=points
            )
        if seats != 2:
            raise TournamentError(
                f"a knockout of {seats}-seat tables needs groups whose top finishers"
                " meet at a final table: give a number of groups"
            )
        if elimination not in ELIMINATIONS:
            raise TournamentError(f"elimination is single or double, not {elimination!r}")
        kind = SingleElimination if elimination == "single" else DoubleElimination
        return kind(entrants, best_of=best_of, seed=seed, points=points)
    raise TournamentError(f"unknown format {name!r}: choose one of {', '.join(FORMAT_NAMES)}")
