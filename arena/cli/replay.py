"""`tavolo replay verify|show|view|rerun`: check, read, watch and replay again replay files."""

from __future__ import annotations

import json
import webbrowser
from pathlib import Path

import click

from arena.bots.registry import BotSpecError
from arena.cli.output import CliError, console, display_text, tavolo_command
from arena.cli.play import jail_choice
from arena.engine import JSON
from arena.replay import ReplayError, ReplayMismatch, read_replay, verify_replay, write_replay
from arena.rerun import DEFAULT_STAND_IN, RerunResult, rerun_replay
from arena.transcript import transcript_lines
from arena.viewing import frames_document
from arena.viewing.local import ReplayServer
from arena.viewing.words import places_text


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
            display_text(f"{path}: MISMATCH: {mismatch}", stderr=True)
        except ReplayError as error:
            raise CliError(f"{path}: {error}") from None
        else:
            display_text(f"{path}: ok")
            if verification.warning:
                display_text(f"{path}: warning: {verification.warning}", stderr=True)
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
        display_text(line)


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
    display_text(f"{file}: {server.url}")
    console.file.flush()
    if not no_open:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def _read_decisions(path: Path) -> JSON:
    """A bots' log by decision, as `tavolo play --logs` writes it."""
    try:
        decisions = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise CliError(f"{path}: cannot read it: {error}") from None
    if not isinstance(decisions, dict) or not isinstance(decisions.get("seats"), dict):
        raise CliError(f"{path}: not a log by decision (no 'seats' object)")
    return decisions


def parse_seat(text: str) -> tuple[int, str]:
    """`N=BOT`: seat N (from 0) played by BOT, a file or builtin:NAME."""
    seat, sep, spec = text.partition("=")
    if not sep or not seat.strip().isdigit() or not spec:
        raise CliError(f"--seat wants N=BOT (a seat number from 0 and a bot), got {text!r}")
    return int(seat), spec


@replay.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--seat",
    "seats",
    multiple=True,
    required=True,
    metavar="N=BOT",
    help="Seat N (from 0) played by BOT, a file or builtin:NAME; repeatable.",
)
@click.option(
    "--stand-in",
    default=DEFAULT_STAND_IN,
    show_default=True,
    metavar="NAME",
    help="The built-in bot that plays a recorded seat whose recorded choice is not legal.",
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Save the new replay.")
@click.option("--no-jail", is_flag=True, help="Run bot files without the jail (unsafe).")
def rerun(
    file: Path, seats: tuple[str, ...], stand_in: str, out: Path | None, no_jail: bool
) -> None:
    """Play FILE's match again, same seed, with some seats played by other bots.

    The other seats play what they played in the recording, as long as the new
    run is the recording event for event; after the first difference each plays
    its next recorded choice if it is legal, and the --stand-in bot's otherwise.
    Prints where the new run first differs from the recording.
    """
    replay = _read(file)
    bots = dict(map(parse_seat, seats))
    if len(bots) != len(seats):
        raise CliError("--seat names the same seat twice")
    jail = jail_choice(tuple(bots.values()), no_jail)
    try:
        result = rerun_replay(replay, bots, jail=jail, stand_in=stand_in)
    except ReplayMismatch as mismatch:
        raise CliError(f"{file}: the engine does not reproduce it: {mismatch}") from None
    except (ReplayError, BotSpecError, ValueError) as error:
        raise CliError(f"{file}: {error}") from None
    if out is not None:
        write_replay(out, result.record.replay)
    for line in rerun_lines(result, bots, out):
        display_text(line)


def rerun_lines(result: RerunResult, bots: dict[int, str], out: Path | None) -> list[str]:
    """What a rerun tells: who played, where it first differs, both results."""
    recorded, new = result.recorded, result.record.replay
    names = [seat["bot"] for seat in recorded["seats"]]
    lines = [
        f"rerun of seed {recorded['seed']} (engine {new['engine_version']}): "
        + ", ".join(f"seat {seat} {bots[seat]} (was {names[seat]})" for seat in sorted(bots))
    ]
    index = result.first_difference
    if index is None:
        lines.append(f"the same match as recorded, all {len(new['events'])} events")
    else:
        same = f"the same as recorded up to event {index - 1}" if index else "different at once"
        lines.append(f"{same}; first difference at event {index}:")
        lines.append(f"  recorded: {_event_text(recorded, index)}")
        lines.append(f"  new:      {_event_text(new, index)}")
    lines.append(f"recorded result: {_places(recorded)}")
    lines.append(f"new result:      {_places(new)}")
    if out is not None:
        lines.append(f"new replay: {out}; read it with {tavolo_command('replay', 'show', out)}")
    return lines


def _event_text(replay: JSON, index: int) -> str:
    """Event `index` of `replay` in words (the first step from it on), or its end."""
    for step in frames_document(replay, view="full")["steps"]:
        if step["index"] >= index:
            return f"{step['index']}  {step['text']}"
    return "(no more events: the match was over)"


def _places(replay: JSON) -> str:
    return places_text(replay["result"]["places"], [seat["bot"] for seat in replay["seats"]])


def _read(path: Path) -> JSON:
    try:
        return read_replay(path)
    except ReplayError as error:
        raise CliError(f"{path}: {error}") from None
