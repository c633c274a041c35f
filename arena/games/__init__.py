"""The games Tavolo knows, by name."""

from __future__ import annotations

from typing import Any

from arena.engine import Game, RulesError

GAME_NAMES = ("mia", "muggins")
HEADER_KEYS = ("game", "players", "variant")
"""The keys of a rules dict that are not options."""


def make_game(
    name: str, players: int, variant: str | None = None, options: dict[str, Any] | None = None
) -> Game:
    """Build the rules object for `name`; raise RulesError for anything not allowed."""
    if name == "mia":
        from arena.games.mia.game import MiaGame

        return MiaGame(players=players, variant=variant, options=options or {})
    if name == "muggins":
        from arena.games.muggins.game import MugginsGame

        return MugginsGame(players=players, variant=variant, options=options or {})
    raise RulesError(f"unknown game {name!r}: choose one of {', '.join(GAME_NAMES)}")


def game_from_rules(rules: dict[str, Any]) -> Game:
    """Rebuild a game from its resolved `rules` dict (as a replay records it)."""
    options = {key: value for key, value in rules.items() if key not in HEADER_KEYS}
    return make_game(rules["game"], rules["players"], rules.get("variant"), options)
