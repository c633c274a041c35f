"""Hand-built Muggins deals for the tests, with tiles written as the rules write them ("6-4")."""

from __future__ import annotations

from typing import Any

from arena.engine import JSON
from arena.games.muggins.game import MugginsGame
from arena.games.muggins.state import MugginsState
from arena.games.muggins.tiles import TILE_COUNT, TILES, tile_of


def tiles(text: str) -> list[list[int]]:
    """``"6-4 3-3"`` as ``[[6, 4], [3, 3]]``."""
    return [[int(half) for half in tile.split("-")] for tile in text.split()]


def deal(
    *hands: str, boneyard: str = "", opener: int = 0, seed: int = 0, **options: Any
) -> MugginsState:
    """A match whose first hand gives each seat these tiles and `opener` the lead.

    The boneyard is drawn in the order given, then every tile not named anywhere,
    heaviest first.
    """
    named = {tile_of(tile) for text in (*hands, boneyard) for tile in tiles(text)}
    rest = [list(TILES[tile]) for tile in range(TILE_COUNT) if tile not in named]
    game = MugginsGame(len(hands), None, options)
    return MugginsState.from_deal(
        game, [tiles(hand) for hand in hands], tiles(boneyard) + rest, opener, seed
    )


def play(state: MugginsState, tile: str, end: str = "left") -> None:
    """Apply the play of `tile` (written high first) on `end`."""
    state.apply({"type": "play", "tile": tiles(tile)[0], "end": end})


def events_of(state: MugginsState, kind: str) -> list[JSON]:
    """The state's events of one type, oldest first."""
    return [event for event in state.events if event["type"] == kind]


def last_play(state: MugginsState) -> JSON:
    """The latest play event."""
    return events_of(state, "play")[-1]
