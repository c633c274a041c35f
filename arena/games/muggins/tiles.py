"""The 28 tiles of a double-six set, hands of tiles, the play actions, and pip rounding.

A tile is an int from 0 to 27, an index into `TILES`, where each tile is a
``(high, low)`` tuple. The set runs from the heaviest tile to the lightest
(6-6, 6-5, ..., 6-0, 5-5, ..., 0-0). A hand is a bitmask with bit `tile` set
for each tile held, so playing and drawing are single bit operations; its
tiles, in order, are read 7 bits at a time from tables (`by_chunk`,
`hand_items`), heaviest first. Everything here is built once at import: the
engine and the bots only look things up.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, islice
from typing import Any, TypeVar

from arena.engine import JSON

Item = TypeVar("Item")

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

LEFT = 0
RIGHT = 1
END_NAMES = ("left", "right")

PLAY_ACTIONS: tuple[JSON, ...] = tuple(
    {"type": "play", "tile": TILE_VIEWS[tile], "end": END_NAMES[end]}
    for tile in range(TILE_COUNT)
    for end in (LEFT, RIGHT)
)
"""Every play action dict, at index ``2 * tile + end`` (shared: never mutate)."""

MOVE_BITS: tuple[int, ...] = tuple(1 << (move >> 1) for move in range(len(PLAY_ACTIONS)))
"""The bit of each move's tile in a hand (a lookup costs less than the shifts)."""

MOVE_OF_ACTION: dict[int, int] = {id(action): move for move, action in enumerate(PLAY_ACTIONS)}
"""The move number ``2 * tile + end`` of each dict in `PLAY_ACTIONS`, by identity.

The dicts live as long as the module, so their ids are stable keys; this turns
a legal action back into its move without reading its fields.
"""


CHUNK_BITS = 7
"""A hand is read this many tiles at a time: 4 chunks of 128 patterns each."""
CHUNK_MASK = (1 << CHUNK_BITS) - 1

ChunkTables = tuple[tuple[tuple[Item, ...], ...], ...]


def by_chunk(
    per_tile: Sequence[tuple[Item, ...]], shared: dict[tuple[int, ...], Any] | None = None
) -> ChunkTables[Item]:
    """Tables giving, for each chunk of a hand and each bit pattern in it, the
    concatenated `per_tile` entries of the tiles held, in tile order.

    Patterns with the same entries share one tuple, also with the other tables
    built with the same `shared` dict: the tables stay small, and so does the
    work of the garbage collector, which walks them all.
    """
    if shared is None:
        shared = {}
    tables = []
    for first in range(0, TILE_COUNT, CHUNK_BITS):  # four whole chunks of 7 tiles
        table: list[tuple[Item, ...]] = [()]
        for tile in range(first, first + CHUNK_BITS):
            # The patterns holding `tile` follow those without it. A tile with no
            # entries adds nothing: ``entries + ()`` is `entries` itself.
            table += [entries + per_tile[tile] for entries in table]
        distinct = {id(entries): entries for entries in table}
        own = {
            key: shared.setdefault(tuple(map(id, entries)), entries)
            for key, entries in distinct.items()
        }
        tables.append(tuple(own[id(entries)] for entries in table))
    return tuple(tables)


def hand_items(tables: ChunkTables[Item], hand: int) -> list[Item]:
    """The entries of every tile in `hand`, in tile order, from `by_chunk` tables
    (four chunks of `CHUNK_BITS` tiles)."""
    first, second, third, fourth = tables
    return [
        *first[hand & CHUNK_MASK],
        *second[hand >> 7 & CHUNK_MASK],
        *third[hand >> 14 & CHUNK_MASK],
        *fourth[hand >> 21],
    ]


HAND_VIEWS: ChunkTables[list[int]] = by_chunk([(view,) for view in TILE_VIEWS])
"""`by_chunk` tables of the tiles' ``[high, low]`` views: a hand as the observation shows it."""


SMALL_HAND_VIEWS: dict[int, list[list[int]]] = {
    sum(1 << tile for tile in tiles): [TILE_VIEWS[tile] for tile in tiles]
    for count in range(3)
    for tiles in combinations(range(TILE_COUNT), count)
}
"""Each hand of at most two tiles as the observation shows it, as one shared
list (never mutate it): what most seats hold when a hand ends."""


def hand_views(hands: list[int]) -> list[list[list[int]]]:
    """Each hand as the observation shows it: from `SMALL_HAND_VIEWS`, or
    `hand_items` of `HAND_VIEWS` inlined for a whole deal at once."""
    first, second, third, fourth = HAND_VIEWS
    return [
        SMALL_HAND_VIEWS[hand]
        if hand in SMALL_HAND_VIEWS
        else [
            *first[hand & CHUNK_MASK],
            *second[hand >> 7 & CHUNK_MASK],
            *third[hand >> 14 & CHUNK_MASK],
            *fourth[hand >> 21],
        ]
        for hand in hands
    ]


TILE_BITS: list[int] = [1 << tile for tile in range(TILE_COUNT)]
"""Each tile's bit in a hand (a list: its `__getitem__` is a quick method to map)."""


def hand_of(tiles: Sequence[int]) -> int:
    """The hand (bitmask) holding these tiles, each named once."""
    return sum(map(TILE_BITS.__getitem__, tiles))


def hands_of(tiles: list[int], size: int, count: int) -> list[int]:
    """The hands of the first `count` runs of `size` tiles, each tile named once."""
    bits = map(TILE_BITS.__getitem__, tiles)
    # Zipping one iterator with itself `size` times gives its consecutive runs.
    runs = zip(*[bits] * size, strict=False)
    return list(map(sum, islice(runs, count)))


def tile_of(halves: list[int] | tuple[int, int]) -> int:
    """The tile with these two halves, in either order; KeyError if there is none."""
    return TILE_INDEX[halves[0], halves[1]]


def round_pips(pips: int) -> int:
    """Pips rounded to the nearest 5: remainders of 1-2 round down, 3-4 up."""
    return (pips + 2) // 5 * 5


CHUNK_PIPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(pips) for pips in chunk) for chunk in by_chunk([(pips,) for pips in PIPS])
)
"""Per chunk of a hand and bit pattern in it, the pips of the tiles held there."""


def hand_pips(hand: int) -> int:
    """The pips left in a hand."""
    first, second, third, fourth = CHUNK_PIPS
    return (
        first[hand & CHUNK_MASK]
        + second[hand >> 7 & CHUNK_MASK]
        + third[hand >> 14 & CHUNK_MASK]
        + fourth[hand >> 21]
    )


ROUNDED_PIPS: tuple[int, ...] = tuple(round_pips(pips) for pips in range(sum(PIPS) + 1))
"""`round_pips` of every pip total a hand can hold."""


def penalties(hands: list[int]) -> list[int]:
    """What each hand left at the end costs its seat: its pips rounded to the
    nearest 5 (`hand_pips`, inlined for all the hands at once)."""
    first, second, third, fourth = CHUNK_PIPS
    return [
        ROUNDED_PIPS[
            first[hand & CHUNK_MASK]
            + second[hand >> 7 & CHUNK_MASK]
            + third[hand >> 14 & CHUNK_MASK]
            + fourth[hand >> 21]
        ]
        for hand in hands
    ]
