"""The games Tavolo knows, by name: `GAMES`, and the rules objects built from them."""

from __future__ import annotations

from typing import Any

from arena.api import ENGINE_VERSION
from arena.engine import Game, RulesError
from arena.games.mia.game import MiaGame
from arena.games.muggins.game import MugginsGame

GAMES: dict[str, type[MiaGame] | type[MugginsGame]] = {
    MiaGame.name: MiaGame,
    MugginsGame.name: MugginsGame,
}
"""Each game's class by name; the class holds its player bounds and variants."""

GAME_NAMES = tuple(GAMES)
HEADER_KEYS = ("game", "players", "variant")
"""The keys of a rules dict that are not options."""


def make_game(
    name: str,
    players: int,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
    *,
    engine_version: str = ENGINE_VERSION,
) -> Game:
    """Build the rules object for `name`, under the rules of `engine_version`;
    raise RulesError for anything not allowed."""
    try:
        game_class = GAMES[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}") from None
    return game_class(players, variant, options or {}, engine_version=engine_version)


def game_from_rules(rules: dict[str, Any], *, engine_version: str = ENGINE_VERSION) -> Game:
    """Rebuild a game from its resolved `rules` dict (as a replay records it)."""
    options = {key: value for key, value in rules.items() if key not in HEADER_KEYS}
    return make_game(
        rules["game"],
        rules["players"],
        rules.get("variant"),
        options,
        engine_version=engine_version,
    )
