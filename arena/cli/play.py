"""`tavolo play`: a series of local matches with a results table."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from arena.bots.registry import BotSpecError, jail_available
from arena.cli.output import (
    CliError,
    console,
    display_alarm,
    display_table,
    display_text,
    display_warning,
)
from arena.cli.progress import match_progress
from arena.cli.safe_text import labelled
from arena.engine import RulesError
from arena.games import GAME_NAMES, make_game
from arena.runner import TimeControl
from arena.series import SeriesResult, play_series
from arena.stats import INFRACTIONS_PER_MATCH_WARNED, BotTally, wilson_interval


def parse_option(text: str) -> tuple[str, object]:
    """`key=value`, the value read as JSON when it is JSON (3, [4,5], "x")."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise CliError(f"--option wants key=value, got {text!r}")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


class Seed(click.ParamType):  # type: ignore[type-arg]
    """A match seed as an int: decimal (``2024``) or hexadecimal as replays and
    the server write it (``7e8``, ``0x7e8``, or the server's 32 digits).

    Digits alone read as decimal, except the server's 32-digit form; a
    hexadecimal seed of fewer digits that has no letter needs its ``0x``.
    """

    name = "seed"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().lower()
        try:
            if text.startswith("0x"):
                return int(text[2:], 16)
            if text.lstrip("-").isdigit() and len(text) != SERVER_SEED_DIGITS:
                return int(text)
            return int(text, 16)
        except ValueError:
            self.fail(f"{value!r} is not a seed: give an integer or hexadecimal digits", param, ctx)


SERVER_SEED_DIGITS = 32
"""The server writes a match seed as 32 hexadecimal digits (128 bits)."""
SEED = Seed()


STRICT = click.option(
    "--strict", is_flag=True, help="Exit with status 1 if any bot had an infraction or crash."
)
"""`--strict` (see `strict_exit`)."""

DIRECTORY = click.Path(file_okay=False, path_type=Path)

MATCH_OPTIONS = (
    click.option("--variant", help="Rules variant, e.g. classic, no-guarantee, croatian."),
    click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option."),
    click.option(
        "--replays", type=click.Path(file_okay=False, path_type=Path), help="Save replays."
    ),
    click.option(
        "--logs", type=click.Path(file_okay=False, path_type=Path), help="Save bot stderr."
    ),
    click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON object instead of tables."
    ),
    click.option("--no-jail", is_flag=True, help="Run bot files without the jail (unsafe)."),
    STRICT,
    click.option("--decision-seconds", type=float, default=TimeControl.decision_seconds),
    click.option("--bank-seconds", type=float, default=TimeControl.bank_seconds),
)


def match_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options of how matches are played and reported, shared by `tavolo play` and
    `tavolo tournament`, in the order `--help` lists them."""
    for option in reversed(MATCH_OPTIONS):
        command = option(command)
    return command


def default_jobs() -> int:
    """The CPUs this process may run on: one match each."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@click.command()
@click.argument("game")
@click.argument("bots", nargs=-1, required=True)
@click.option("--games", "-n", default=1, show_default=True, help="Matches to play.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=default_jobs,
    show_default="the number of CPUs",
    help="Matches played at once, each in a process of its own; the results do not depend on it.",
)
@click.option(
    "--seed",
    type=SEED,
    help="The first match's seed, decimal or hexadecimal as the server writes it "
    "(0x7e8, 7e8 or 32 hex digits); later seeds follow from it.",
)
@match_options
def play(
    game: str,
    bots: tuple[str, ...],
    games: int,
    jobs: int,
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
    """Play GAME (mia or muggins) between BOTS: files or builtin:NAME."""
    if game not in GAME_NAMES:
        raise CliError(f"unknown game {game!r}: choose one of {', '.join(GAME_NAMES)}")
    if games < 1:
        raise CliError("--games must be at least 1")
    if decision_seconds <= 0 or bank_seconds < 0:
        raise CliError("--decision-seconds must be positive and --bank-seconds not negative")
    try:
        rules = make_game(game, len(bots), variant, dict(map(parse_option, options)))
    except RulesError as error:
        raise CliError(str(error)) from None
    jail = jail_choice(bots, no_jail)
    for folder in (replays, logs):
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
    with match_progress(game, games, quiet=as_json or games < 2) as progress:
        try:
            result = play_series(
                rules,
                bots,
                games=games,
                seed=seed,
                jail=jail,
                time_control=TimeControl(decision_seconds, bank_seconds),
                replays=replays,
                logs=logs,
                on_match=lambda number, record: progress.advance(),
                jobs=jobs,
            )
        except BotSpecError as error:
            raise CliError(str(error)) from None
    if as_json:
        click.echo(json.dumps(result.as_json()))
    else:
        _show(result)
    for tally in result.tallies:
        if tally.too_many_infractions:
            display_alarm(infraction_alarm(tally))
    if strict:
        strict_exit(result.tallies)


def infraction_alarm(tally: BotTally) -> str:
    """Why a bot's wins must not be read as good play."""
    first = f" First: {tally.notes[0]}." if tally.notes else ""
    return (
        f"{tally.name} committed {tally.infractions} infractions in {tally.games} matches "
        f"({tally.infractions / tally.games:.1f} per match, over the "
        f"{INFRACTIONS_PER_MATCH_WARNED:g} that is tolerated): its wins and places say little "
        f"about how it plays, and the server would not qualify it.{first}"
    )


def strict_exit(tallies: list[BotTally]) -> None:
    """With --strict: exit 1 naming each bot that had infractions or crashes."""
    faults = [
        f"{tally.name}: {tally.infractions} infractions, {tally.crashes} crashes"
        for tally in tallies
        if tally.infractions or tally.crashes
    ]
    if faults:
        display_text(f"tavolo: --strict: {'; '.join(faults)}", stderr=True)
        raise SystemExit(1)


def jail_choice(bots: tuple[str, ...], no_jail: bool) -> bool:
    files = [bot for bot in bots if not bot.startswith("builtin:")]
    if not files:
        return True
    if no_jail:
        display_warning("--no-jail: bot files run with your user's full rights")
        return False
    try:
        jailed = jail_available()
    except BotSpecError as error:
        raise CliError(str(error)) from None
    if not jailed:
        raise CliError("bubblewrap (bwrap) is not available: install it, or pass --no-jail")
    return True


def _show(result: SeriesResult) -> None:
    rows = []
    for tally in result.tallies:
        low, high = wilson_interval(tally.wins, tally.games)
        rows.append(
            (
                tally.name,
                str(tally.games),
                str(tally.wins),
                f"{100 * tally.win_rate:.1f}",
                f"{low:.0%}-{high:.0%}",
                f"{tally.mean_place:.2f}",
                str(tally.infractions),
                str(tally.crashes),
            )
        )
    title = (
        f"{result.game}: {result.games} matches, {result.decisions} decisions"
        " (place: mean place; infr.: infractions)"
    )
    columns = ("bot", "games", "wins", "win %", "95% CI", "place", "infr.", "crash")
    display_table(title, columns, rows)
    for tally in result.tallies:
        for note in tally.notes:
            console.print(labelled(tally.name, note))
        if tally.log_tail:
            console.print(labelled(tally.name, "log (end)"))
            display_text(tally.log_tail, lines=True)
