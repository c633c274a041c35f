"""Play a tournament on this machine: the format's tables, one match each, in the jail.

`tavolo tournament` runs this; the matches are played exactly as `tavolo play`
plays them (`arena.series`), so a bot meets the same engine, jail and limits.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.bots.registry import check_spec
from arena.engine import Game
from arena.runner import DEFAULT_TIME_CONTROL, MatchRecord, TimeControl
from arena.series import SeriesResult, bot_labels, play_seated, save_match, tally_match
from arena.stats import BotTally, wilson_interval
from arena.tournaments.formats import Format
from arena.tournaments.standings import Standing
from arena.tournaments.tables import Table, TableResult


@dataclass
class TournamentResult:
    """The standings of a finished event, with each entrant's match totals."""

    game: str
    format: str
    series: SeriesResult
    standings: list[Standing]
    results: list[TableResult]

    def lines(self) -> list[tuple[Standing, BotTally]]:
        """Each standing with its entrant's tally, first place first."""
        return [(line, self.series.tallies[line.entrant]) for line in self.standings]

    def as_json(self) -> dict[str, object]:
        standings = []
        for line, tally in self.lines():
            low, high = wilson_interval(tally.wins, tally.games)
            standings.append(
                {
                    **line.as_json(),
                    "name": tally.name,
                    "win_rate": round(tally.win_rate, 4),
                    "win_rate_interval": [round(low, 4), round(high, 4)],
                    "infractions": tally.infractions,
                    "crashes": tally.crashes,
                }
            )
        return {
            "game": self.game,
            "format": self.format,
            "matches": self.series.games,
            "decisions": self.series.decisions,
            "seconds": round(self.series.seconds, 6),
            "standings": standings,
        }


def play_tournament(
    game: Game,
    specs: Sequence[str],
    event: Format,
    *,
    format_name: str,
    seed: int | None = None,
    jail: bool = True,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    replays: Path | None = None,
    logs: Path | None = None,
    on_tables: Callable[[list[Table]], None] | None = None,
    on_match: Callable[[Table, MatchRecord], None] | None = None,
) -> TournamentResult:
    """Play `event` between `specs` (entrant i is `specs[i]`) to its end.

    With a `seed` every match and built-in bot seed is drawn from it, so the
    whole event is reproducible. `on_tables` hears of each batch of tables
    before it is played, `on_match` of each match played.
    """
    for spec in specs:
        check_spec(spec, game=game.name)
    labels = bot_labels(specs)
    master = random.Random(seed) if seed is not None else random.Random(secrets.randbits(128))
    series = SeriesResult(game=game.name, tallies=[BotTally(label) for label in labels])
    results: list[TableResult] = []
    while tables := event.next_tables(results):
        if on_tables is not None:
            on_tables(tables)
        for table in tables:
            record = play_seated(
                game, specs, labels, table.seats, master, jail=jail, time_control=time_control
            )
            results.append(TableResult(table, tuple(record.result["places"])))
            tally_match(series, record, table.seats)
            save_match(
                record, f"match-{series.games:04d}-{table.key}", table.seats, labels, replays, logs
            )
            if on_match is not None:
                on_match(table, record)
    return TournamentResult(game.name, format_name, series, event.standings(results), results)
