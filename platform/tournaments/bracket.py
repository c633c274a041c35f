"""A knockout's bracket as the site draws it: rounds of series, each side's wins, the winner.

Who won a series is the format's own verdict (`arena.tournaments.knockout.series_outcome`),
so the drawing always agrees with the standings.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from arena.tournaments.knockout import Series, series_outcome
from arena.tournaments.tables import by_key
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.selectors import table_result

STAGES = {"W": "Winners", "L": "Losers", "final": "Final"}
"""How a double elimination's stages are named on the page."""


@dataclass
class BracketSide:
    """One entrant of a series: its entry (None if unknown), games won, and whether it won."""

    entry: Entry | None
    wins: int
    winner: bool


@dataclass
class BracketSeries:
    """One series: its label, both sides (better seed first) and its games in order."""

    label: str
    sides: list[BracketSide]
    games: list[TournamentTable]


@dataclass
class BracketRound:
    number: int
    series: list[BracketSeries]


def tournament_bracket(
    *, tournament: Tournament, tables: list[TournamentTable], entries: list[Entry]
) -> list[BracketRound]:
    """The rounds of a two-seat knockout (empty for any other format), from its tables."""
    if tournament.format != "knockout" or tournament.groups:
        return []
    numbered = {entry.number: entry for entry in entries if entry.number is not None}
    done = by_key([table_result(table) for table in tables if table.places is not None])
    ordered = sorted(tables, key=lambda table: (table.round, table.stage, table.series))
    rounds: dict[int, list[BracketSeries]] = {}
    for (number, stage, index), group in groupby(
        ordered, key=lambda table: (table.round, table.stage, table.series)
    ):
        games = sorted(group, key=lambda table: table.game)
        high, low = sorted(games[0].seats)
        winner, _ = series_outcome(
            Series(number, stage, index, high, low), tournament.best_of, done
        )
        wins = dict.fromkeys((high, low), 0)
        for game in games:
            if game.places is not None and len(set(game.places)) == 2:
                wins[game.seats[game.places.index(min(game.places))]] += 1
        label = f"{STAGES.get(stage, stage)} {index}" if stage else ""
        sides = [
            BracketSide(numbered.get(side), wins[side], side == winner) for side in (high, low)
        ]
        rounds.setdefault(number, []).append(BracketSeries(label, sides, games))
    return [BracketRound(number, series) for number, series in sorted(rounds.items())]
