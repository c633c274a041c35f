"""Turn a bot spec from the command line or the platform into a `BotHandle`.

A spec is either ``builtin:NAME`` (a trusted in-process bot of the game) or the
path of a bot file. File bots are opened by the ``tavolo.file_bots`` entry point
(the sandbox), so that arena never depends on the jail's code.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from arena.bots.handle import BotHandle
from arena.bots.inprocess import Act, InProcessBot

BUILTIN_PREFIX = "builtin:"


class BotSpecError(ValueError):
    """A bot spec that names no bot: an unknown built-in or a missing file."""


def builtin_bots(game: str) -> dict[str, Callable[[int], Act]]:
    """The built-in bot factories of `game`, by name."""
    module = importlib.import_module(f"arena.games.{game}.bots")
    factories: dict[str, Callable[[int], Act]] = module.BUILTIN_BOTS
    return factories


def check_spec(spec: str, *, game: str) -> None:
    """Raise BotSpecError now if `spec` could never be opened."""
    if spec.startswith(BUILTIN_PREFIX):
        factories = builtin_bots(game)
        if spec.removeprefix(BUILTIN_PREFIX) not in factories:
            known = ", ".join(BUILTIN_PREFIX + known for known in factories)
            raise BotSpecError(f"unknown built-in bot {spec!r} for {game}: choose {known}")
    elif not Path(spec).is_file():
        raise BotSpecError(f"no such bot file: {spec}")


def open_bot(
    spec: str, *, game: str, seed: int, jail: bool = True, name: str | None = None
) -> BotHandle:
    """Open the bot `spec` names for one match of `game`."""
    check_spec(spec, game=game)
    if spec.startswith(BUILTIN_PREFIX):
        factory = builtin_bots(game)[spec.removeprefix(BUILTIN_PREFIX)]
        return InProcessBot(name or spec, factory(seed))
    path = Path(spec)
    return file_bot_opener()(path, name=name or path.name, jail=jail)


@functools.cache
def _sandbox_entry(name: str) -> Callable[..., Any]:
    """The sandbox's entry point `name`, looked up once: reading the installed
    packages' metadata costs milliseconds, and a series opens bots by the thousand."""
    found = entry_points(group="tavolo.file_bots", name=name)
    if not found:
        raise BotSpecError("bot files need the sandbox package, which is not installed")
    entry: Callable[..., Any] = next(iter(found)).load()
    return entry


def file_bot_opener() -> Callable[..., BotHandle]:
    """The installed opener of bot files (the sandbox's `open_file_bot`)."""
    return _sandbox_entry("open")


def jail_available() -> bool:
    """Whether the installed sandbox can jail bot files on this machine."""
    return bool(_sandbox_entry("jail_available")())
