"""The `tavolo` command: a thin shell over arena's library code.

Commands of other packages (the platform's `standalone`) join the group through
the ``tavolo.commands`` entry point, so arena never imports them.
"""

from __future__ import annotations

from importlib.metadata import entry_points

import click

from arena.cli.account import login, upload
from arena.cli.fetch import fetch
from arena.cli.new_bot import new_bot
from arena.cli.play import play
from arena.cli.replay import replay
from arena.cli.tournament import tournament
from arena.logs import logging_setup


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tavolo")
def tavolo() -> None:
    """Write bots for Mia and Muggins, play them locally, and rank them online."""


tavolo.add_command(play)
tavolo.add_command(tournament)
tavolo.add_command(replay)
replay.add_command(fetch)
tavolo.add_command(new_bot)
tavolo.add_command(login)
tavolo.add_command(upload)


def _add_plugin_commands() -> None:
    for entry in entry_points(group="tavolo.commands"):
        try:
            command = entry.load()
        except ModuleNotFoundError:
            continue  # that part of Tavolo is not installed
        tavolo.add_command(command, entry.name)


def main() -> None:
    """Console-script entry point."""
    try:
        logging_setup()
    except ValueError as error:  # a bad TAVOLO_LOG_FORMAT
        raise SystemExit(f"tavolo: {error}") from None
    _add_plugin_commands()
    tavolo()
