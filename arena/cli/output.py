"""All command output goes through these helpers: one console, one error style."""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.console import Console
from rich.table import Table

console = Console(soft_wrap=True)
error_console = Console(stderr=True, soft_wrap=True)


class CliError(click.ClickException):
    """A bad input: one clear line on stderr and exit code 2, never a traceback."""

    exit_code = 2

    def show(self, file: object = None) -> None:
        error_console.print(f"tavolo: error: {self.message}", markup=False, highlight=False)


def display_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    table = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index == 0 else "right", no_wrap=index == 0)
    for row in rows:
        table.add_row(*row)
    console.print(table)


def display_warning(message: str) -> None:
    error_console.print(f"tavolo: warning: {message}", style="yellow", markup=False)
