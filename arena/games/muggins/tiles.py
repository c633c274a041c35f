"""The 28 tiles of a double-six set, the play actions, and pip rounding.

A tile is an int from 0 to 27, an index into `TILES`, where each tile is a
``(high, low)`` tuple. The set runs from the heaviest tile to the lightest
(6-6, 6-5, ..., 6-0, 5-5, ..., 0-0), so a hand kept sorted by index shows its
heaviest tiles first. Everything here is built once at import: the engine and
the bots only look things up.
"""

from __future__ import annotations

from arena.engine import JSON

TILES: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in range(6, -1, -1) for low in range(high, -1, -1)
)
"""Every tile as ``(high, low)``, heaviest first."""

TILE_COUNT = len(TILES)

TILE_INDEX: dict[tuple[int, int], int] = {}
"""A tile's index from its two halves, in either order."""
for _index, (_high, _low) in enumerate(TILES):
    TILE_INDEX[_high, _low] = _index
    TILE_INDEX[_low, _high] = _index

TILE_VIEWS: tuple[list[int], ...] = tuple([high, low] for high, low in TILES)
"""Each tile as the JSON list ``[high, low]`` (shared: never mutate)."""

PIPS: tuple[int, ...] = tuple(high + low for high, low in TILES)
"""The pips on each tile."""

IS_DOUBLE: tuple[bool, ...] = tuple(high == low for high, low in TILES)

SUIT: tuple[frozenset[int], ...] = tuple(
    frozenset(tile for tile, halves in enumerate(TILES) if value in halves) for value in range(7)
)
"""The tiles that hold each number of pips (the seven suits)."""

LEFT = 0
RIGHT = 1
END_NAMES = ("left", "right")

PLAY_ACTIONS: tuple[JSON, ...] = tuple(
    {"type": "play", "tile": TILE_VIEWS[tile], "end": END_NAMES[end]}
    for tile in range(TILE_COUNT)
    for end in (LEFT, RIGHT)
)
"""Every play action dict, at index ``2 * tile + end`` (shared: never mutate)."""

MOVE_OF_ACTION: dict[int, int] = {id(action): move for move, action in enumerate(PLAY_ACTIONS)}
"""The move number ``2 * tile + end`` of each dict in `PLAY_ACTIONS`, by identity.

The dicts live as long as the module, so their ids are stable keys; this turns
a legal action back into its move without reading its fields.
"""


def tile_of(halves: list[int] | tuple[int, int]) -> int:
    """The tile with these two halves, in either order; KeyError if there is none."""
    return TILE_INDEX[halves[0], halves[1]]


def round_pips(pips: int) -> int:
    """Pips rounded to the nearest 5: remainders of 1-2 round down, 3-4 up."""
    return (pips + 2) // 5 * 5


def hand_pips(hand: list[int]) -> int:
    """The pips left in a hand of tiles."""
    return sum(PIPS[tile] for tile in hand)
