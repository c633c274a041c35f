"""All command output goes through these helpers: one console, one error style."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from arena.cli.safe_text import plain

console = Console(soft_wrap=True)
error_console = Console(stderr=True, soft_wrap=True)


class CliError(click.ClickException):
    """A bad input: one clear line on stderr and exit code 2, never a traceback."""

    exit_code = 2

    def show(self, file: object = None) -> None:
        error_console.print(plain(f"tavolo: error: {self.message}"))


def display_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A table whose every title, heading and cell is shown as plain text (bot names)."""
    table = Table(title=plain(title), title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(
            plain(column), justify="left" if index == 0 else "right", no_wrap=index == 0
        )
    for row in rows:
        table.add_row(*(plain(cell) for cell in row))
    console.print(table)


def display_text(text: object, *, lines: bool = False, stderr: bool = False) -> None:
    """Print text that may hold a bot's words: no markup, control characters escaped."""
    (error_console if stderr else console).print(plain(text, lines=lines))


def display_warning(message: str) -> None:
    error_console.print(plain(f"tavolo: warning: {message}", style="yellow"))


def display_alarm(message: str) -> None:
    """A warning that must not be missed: bold red on stderr, framed by blank lines."""
    error_console.print()
    error_console.print(plain(f"tavolo: WARNING: {message}", style="bold red"))
    error_console.print()


def tavolo_command(*words: object) -> str:
    """A `tavolo` command line to print as a hint, runnable as printed.

    Under ``uv run`` (which sets ``UV_RUN_RECURSION_DEPTH``) it starts ``uv run
    tavolo``, as the README runs it from a checkout. A ``tavolo`` program run
    otherwise starts as it was typed: ``tavolo`` when that name on the PATH is
    this very program (``uv tool install``, pipx, an activated environment),
    else its path. Anything else (``python -m``, a test) gets ``uv run tavolo``.
    """
    prefix = "uv run tavolo"
    launched = sys.argv[0] if sys.argv else ""
    if "UV_RUN_RECURSION_DEPTH" not in os.environ and Path(launched).name == "tavolo":
        found = shutil.which("tavolo")
        same = found is not None and Path(found).resolve() == Path(launched).resolve()
        prefix = "tavolo" if same else shlex.quote(launched)
    return " ".join([prefix, *(shlex.quote(str(word)) for word in words)])
