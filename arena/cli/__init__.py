"""The `tavolo` command: a thin shell over arena's library code.

Commands of other packages (the platform's `standalone`) join the group through
the ``tavolo.commands`` entry point, so arena never imports them, and they load
only when they run or are listed: `tavolo play` imports neither the platform
(Django, Celery) nor the HTTP client.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

import click

from arena.cli.account import login, upload
from arena.cli.fetch import fetch
from arena.cli.new_bot import new_bot
from arena.cli.play import play
from arena.cli.replay import replay
from arena.cli.tournament import tournament
from arena.logs import logging_setup

PLUGIN_GROUP = "tavolo.commands"


def _plugins() -> dict[str, EntryPoint]:
    return {entry.name: entry for entry in entry_points(group=PLUGIN_GROUP)}


class TavoloGroup(click.Group):
    """The root group, which loads the commands of other packages on demand."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_plugins()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        entry = None if command is not None else _plugins().get(cmd_name)
        if entry is None:
            return command
        try:
            loaded: click.Command = entry.load()
            return loaded
        except ModuleNotFoundError:
            return None  # that part of Tavolo is not installed


@click.group(cls=TavoloGroup, context_settings={"help_option_names": ["-h", "--help"]})
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


def main() -> None:
    """Console-script entry point."""
    try:
        logging_setup()
    except ValueError as error:  # a bad TAVOLO_LOG_FORMAT
        raise SystemExit(f"tavolo: {error}") from None
    tavolo()
