"""Hand-built Muggins deals for the tests, with tiles written as the rules write them ("6-4")."""

from __future__ import annotations

from typing import Any

from arena.engine import JSON
from arena.games.muggins.game import MugginsGame
from arena.games.muggins.state import Deal, MugginsState
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
    return from_deal(game, [tiles(hand) for hand in hands], tiles(boneyard) + rest, opener, seed)


def from_deal(
    game: MugginsGame,
    hands: list[list[Any]],
    boneyard: list[Any],
    opener: int,
    seed: int = 0,
) -> MugginsState:
    """A match whose first hand is this deal, for tests and worked examples.

    `hands` holds each seat's tiles and `boneyard` the rest in the order they
    will be drawn, each tile as ``[a, b]`` in either order; together they must
    be the 28 tiles once each, every hand at least one tile. Later hands are
    dealt from `seed`. Such a match is not a replay of any seed.
    """
    dealt = [sorted(tile_of(tile) for tile in hand) for hand in hands]
    draw_order = [tile_of(tile) for tile in boneyard]
    every = sorted(tile for hand in (*dealt, draw_order) for tile in hand)
    if len(dealt) != game.players or not all(dealt) or every != list(range(TILE_COUNT)):
        raise ValueError("a deal needs one non-empty hand per seat and all 28 tiles once")
    if not 0 <= opener < game.players:
        raise ValueError(f"no seat {opener} to open")
    return MugginsState(game, seed, first_deal=Deal(dealt, draw_order, opener))


def play(state: MugginsState, tile: str, end: str = "left") -> None:
    """Apply the play of `tile` (written high first) on `end`."""
    state.apply({"type": "play", "tile": tiles(tile)[0], "end": end})


def events_of(state: MugginsState, kind: str) -> list[JSON]:
    """The state's events of one type, oldest first."""
    return [event for event in state.events if event["type"] == kind]


def last_play(state: MugginsState) -> JSON:
    """The latest play event."""
    return events_of(state, "play")[-1]
