"""`tavolo new-bot`: write a commented starting bot for a game."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import click

from arena.cli.output import CliError, console, tavolo_command
from arena.games import GAME_NAMES


def starter_source(game: str, file: Path | None = None) -> str:
    """The commented starting bot shipped for `game`; its "Run it" line names
    `file` as the command that runs it (how tavolo was launched)."""
    source = files("arena.templates").joinpath(f"{game}_bot.py").read_text()
    if file is None:
        return source
    opponents = ["builtin:random"] * (2 if game == "mia" else 1)
    run = tavolo_command("play", game, file, *opponents, "--games", 100)
    return source.replace(f"tavolo play {game} THIS_FILE {' '.join(opponents)} --games 100", run)


@click.command("new-bot")
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def new_bot(game: str, file: Path, force: bool) -> None:
    """Write a starting bot for GAME (mia or muggins) to FILE."""
    if game not in GAME_NAMES:
        raise CliError(f"unknown game {game!r}: choose one of {', '.join(GAME_NAMES)}")
    if file.exists() and not force:
        raise CliError(f"{file} exists: choose another name or pass --force")
    try:
        file.write_text(starter_source(game, file))
    except OSError as error:
        raise CliError(f"cannot write {file}: {error.strerror or error}") from None
    hint = tavolo_command("play", game, file, "builtin:random")
    console.print(f"wrote {file}; try it: {hint}", markup=False, highlight=False)
