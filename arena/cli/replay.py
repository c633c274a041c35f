"""`tavolo replay verify|show|view`: check, read and watch replay files."""

from __future__ import annotations

import json
import webbrowser
from pathlib import Path

import click

from arena.cli.output import CliError, console, error_console
from arena.replay import ReplayError, ReplayMismatch, read_replay, verify_replay
from arena.transcript import transcript_lines
from arena.viewing import frames_document
from arena.viewing.local import ReplayServer


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


@replay.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--no-open", is_flag=True, help="Print the address; do not open a browser.")
@click.option("--port", default=0, show_default=True, help="Port on 127.0.0.1 (0: any free one).")
@click.option(
    "--logs",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A .decisions.json file of `tavolo play --logs`: show what the bots printed.",
)
def view(file: Path, no_open: bool, port: int, logs: Path | None) -> None:
    """Watch a replay in the viewer, in a local browser (Ctrl-C to stop)."""
    replay = _read(file)
    decisions = None if logs is None else _read_decisions(logs)
    try:
        frames_document(replay, view="full")
    except ValueError as error:
        raise CliError(f"{file}: the engine does not reproduce it: {error}") from None
    try:
        server = ReplayServer(replay, port, logs=decisions)
    except OSError as error:
        raise CliError(f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}") from None
    console.print(f"{file}: {server.url}", markup=False, highlight=False)
    console.file.flush()
    if not no_open:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def _read_decisions(path: Path) -> dict:
    """A bots' log by decision, as `tavolo play --logs` writes it."""
    try:
        decisions = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise CliError(f"{path}: cannot read it: {error}") from None
    if not isinstance(decisions, dict) or not isinstance(decisions.get("seats"), dict):
        raise CliError(f"{path}: not a log by decision (no 'seats' object)")
    return decisions


def _read(path: Path) -> dict:
    try:
        return read_replay(path)
    except ReplayError as error:
        raise CliError(f"{path}: {error}") from None
