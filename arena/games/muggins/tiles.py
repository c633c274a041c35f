"""The 28 tiles of a double-six set and the play actions (RULES.md 2.1, 2.3).

A tile is an int from 0 to 27, its index in `TILES`, which runs from the
heaviest tile to the lightest (6-6, 6-5, ..., 6-0, 5-5, ..., 0-0). A hand is
a list of tiles in that order, so the engine lists a hand, and a seat's plays,
heaviest tile first. Everything here is built once at import and shared: the
lists and dicts handed out must never be mutated.
"""

from __future__ import annotations

from arena.engine import JSON

TILES: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in range(6, -1, -1) for low in range(high, -1, -1)
)
"""Every tile as ``(high, low)``, heaviest first."""

TILE_COUNT = len(TILES)

TILE_INDEX: dict[tuple[int, int], int] = {
    **{(low, high): tile for tile, (high, low) in enumerate(TILES)},
    **{halves: tile for tile, halves in enumerate(TILES)},
}
"""A tile's index from its two halves, in either order."""

TILE_VIEWS: tuple[list[int], ...] = tuple([high, low] for high, low in TILES)
"""Each tile as the observation shows it, ``[high, low]``."""

PIPS: tuple[int, ...] = tuple(high + low for high, low in TILES)
"""The pips on each tile."""

LEFT, RIGHT = 0, 1
END_NAMES = ("left", "right")
END_OF_NAME = {"left": LEFT, "right": RIGHT}


def _play_action(tile: int, end: int) -> JSON:
    return {"type": "play", "tile": TILE_VIEWS[tile], "end": END_NAMES[end]}


PLAY_ACTIONS: tuple[tuple[JSON, JSON], ...] = tuple(
    (_play_action(tile, LEFT), _play_action(tile, RIGHT)) for tile in range(TILE_COUNT)
)
"""``PLAY_ACTIONS[tile][end]``: the action dict of laying `tile` on `end`."""


def tile_of(halves: list[int] | tuple[int, int]) -> int:
    """The tile with these two halves, in either order; KeyError if there is none."""
    return TILE_INDEX[halves[0], halves[1]]
