"""`tavolo replay verify|show`: check and read replay files."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.output import CliError, console, error_console
from arena.replay import ReplayError, ReplayMismatch, read_replay, verify_replay
from arena.transcript import transcript_lines


@click.group()
def replay() -> None:
    """Verify or read replay files (.json or .json.gz)."""


@replay.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def verify(files: tuple[Path, ...]) -> None:
    """Re-simulate each replay; exit 1 naming the first mismatch of any altered one."""
    failed = 0
    for path in files:
        try:
            verification = verify_replay(_read(path))
        except ReplayMismatch as mismatch:
            failed += 1
            error_console.print(f"{path}: MISMATCH: {mismatch}", markup=False, highlight=False)
        except ReplayError as error:
            raise CliError(f"{path}: {error}") from None
        else:
            console.print(f"{path}: ok", markup=False, highlight=False)
            if verification.warning:
                error_console.print(
                    f"{path}: warning: {verification.warning}", markup=False, highlight=False
                )
    if failed:
        raise SystemExit(1)


VIEW_HELP = "what to show: full (the default), public, or a seat number (what it knew)"


@replay.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--view", default="full", show_default=True, help=VIEW_HELP)
@click.option("--decisions", is_flag=True, help="Also list each decision as its own line.")
def show(file: Path, view: str, decisions: bool) -> None:
    """Print a readable transcript of a replay, one line per event."""
    try:
        lines = list(transcript_lines(_read(file), view=view, decisions=decisions))
    except ReplayMismatch as mismatch:
        raise CliError(f"{file}: the engine does not reproduce it: {mismatch}") from None
    except ValueError as error:
        raise CliError(f"{file}: {error}") from None
    for line in lines:
        console.print(line, markup=False, highlight=False)


def _read(path: Path) -> dict:
    try:
        return read_replay(path)
    except ReplayError as error:
        raise CliError(f"{path}: {error}") from None
