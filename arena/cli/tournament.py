"""`tavolo tournament`: a round-robin, Swiss or knockout event between local bots."""

from __future__ import annotations

import json
from pathlib import Path

import click

from arena.bots.registry import BotSpecError
from arena.cli.output import CliError, console, display_table
from arena.cli.play import (
    SEED,
    jail_choice,
    match_options,
    parse_option,
    strict_exit,
)
from arena.cli.progress import match_progress
from arena.cli.safe_text import labelled
from arena.engine import RulesError
from arena.games import GAME_NAMES, make_game
from arena.runner import TimeControl
from arena.stats import wilson_interval
from arena.tournaments import ELIMINATIONS, FORMAT_NAMES, TournamentError, make_format
from arena.tournaments.local import TournamentResult, play_tournament
from arena.tournaments.round_robin import RoundRobin


@click.command()
@click.argument("game")
@click.argument("bots", nargs=-1, required=True)
@click.option(
    "--format", "format_name", type=click.Choice(FORMAT_NAMES), required=True, help="The format."
)
@click.option("--seats", "-k", type=int, default=2, show_default=True, help="Seats per table.")
@click.option("--rounds", type=int, help="Swiss: rounds to play.")
@click.option("--repeat", type=int, default=1, show_default=True, help="Plays of each table.")
@click.option("--best-of", type=int, default=1, show_default=True, help="Knockout: series length.")
@click.option("--elimination", type=click.Choice(ELIMINATIONS), default="single", show_default=True)
@click.option("--groups", type=int, help="Knockout of 3+ seats: groups before the final table.")
@click.option("--points", help="Points per place, first to last, e.g. 3,1,0 (default K-1..0).")
@click.option(
    "--seed",
    type=SEED,
    help="Make the whole event reproducible; a finished server tournament's seed (hexadecimal, "
    "on its page) gives its schedule, with the bots in the order of its entrants.",
)
@match_options
def tournament(
    game: str,
    bots: tuple[str, ...],
    format_name: str,
    seats: int,
    rounds: int | None,
    repeat: int,
    best_of: int,
    elimination: str,
    groups: int | None,
    points: str | None,
    seed: int | None,
    variant: str | None,
    options: tuple[str, ...],
    replays: Path | None,
    logs: Path | None,
    as_json: bool,
    no_jail: bool,
    strict: bool,
    decision_seconds: float,
    bank_seconds: float,
) -> None:
    """Play a tournament of GAME between BOTS (files or builtin:NAME), best seed first."""
    if game not in GAME_NAMES:
        raise CliError(f"unknown game {game!r}: choose one of {', '.join(GAME_NAMES)}")
    if decision_seconds <= 0 or bank_seconds < 0:
        raise CliError("--decision-seconds must be positive and --bank-seconds not negative")
    try:
        event = make_format(
            format_name,
            entrants=len(bots),
            seats=seats,
            rounds=rounds,
            repeat=repeat,
            best_of=best_of,
            elimination=elimination,
            groups=groups,
            seed=seed or 0,
            points=_points(points),
        )
        rules = make_game(game, seats, variant, dict(map(parse_option, options)))
    except (TournamentError, RulesError) as error:
        raise CliError(str(error)) from None
    if isinstance(event, RoundRobin) and not as_json:
        console.print(f"Schedule: {event.plan.description}.", highlight=False)
    jail = jail_choice(bots, no_jail)
    for folder in (replays, logs):
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
    with match_progress(f"{game} {format_name}", 0, quiet=as_json) as progress:
        try:
            result = play_tournament(
                rules,
                bots,
                event,
                format_name=format_name,
                seed=seed,
                jail=jail,
                time_control=TimeControl(decision_seconds, bank_seconds),
                replays=replays,
                logs=logs,
                on_tables=lambda tables: progress.add(len(tables)),
                on_match=lambda table, record: progress.advance(),
            )
        except BotSpecError as error:
            raise CliError(str(error)) from None
    if as_json:
        click.echo(json.dumps(result.as_json()))
    else:
        _show(result)
    if strict:
        strict_exit(result.series.tallies)


def _points(text: str | None) -> list[float] | None:
    if text is None:
        return None
    try:
        return [float(value) for value in text.split(",")]
    except ValueError:
        raise CliError(f"--points wants numbers separated by commas, got {text!r}") from None


def _show(result: TournamentResult) -> None:
    lines = result.lines()
    optional = {
        "infr.": [str(tally.infractions) for _, tally in lines],
        "crash": [str(tally.crashes) for _, tally in lines],
        "status": [line.status for line, _ in lines],
    }
    shown = {
        name: cells for name, cells in optional.items() if any(c not in ("", "0") for c in cells)
    }
    rows = []
    for index, (line, tally) in enumerate(lines):
        low, high = wilson_interval(tally.wins, tally.games)
        rows.append(
            (
                f"{line.rank}. {tally.name}",
                f"{float(line.points):g}",
                str(tally.games),
                str(tally.wins),
                f"{low:.0%}-{high:.0%}",
                f"{tally.mean_place:.2f}",
                *(cells[index] for cells in shown.values()),
            )
        )
    title = (
        f"{result.game} {result.format}: {result.series.games} matches"
        " (95% CI: of the win rate; place: mean place)"
    )
    display_table(title, ("bot", "points", "games", "wins", "95% CI", "place", *shown), rows)
    for _, tally in lines:
        for note in tally.notes:
            console.print(labelled(tally.name, note))
