"""The line of tiles on the table: two open ends and what each end counts.

There is one line and no branches; doubles lie crosswise. An end shows the
pips of its exposed half and *counts* those pips, or both halves of a double
sitting at that end. The opening tile lies with its high half to the left and
its low half to the right; a play's count is the sum of the two ends' counts
after it, except the opening play, which counts the tile's pips with a double
once (5-5 counts 10, where its two ends count 10 each). A count scores when it
is a multiple of 5.

Ends are also passed around as plain ``(left_pips, left_counts, right_pips,
right_counts)`` tuples (`Ends`), which is how the bots look ahead.
"""

from __future__ import annotations

from arena.engine import JSON
from arena.games.muggins.tiles import (
    END_NAMES,
    IS_DOUBLE,
    LEFT,
    PIPS,
    PLAY_ACTIONS,
    TILE_COUNT,
    TILE_VIEWS,
    TILES,
    ChunkTables,
    by_chunk,
)

Ends = tuple[int, int, int, int]
"""``(left_pips, left_counts, right_pips, right_counts)``."""


def _end_after(tile: int, pips: int) -> tuple[int, int] | None:
    high, low = TILES[tile]
    if pips not in (high, low):
        return None
    other = low if pips == high else high
    return other, 2 * other if IS_DOUBLE[tile] else other


END_AFTER: tuple[tuple[tuple[int, int] | None, ...], ...] = tuple(
    tuple(_end_after(tile, pips) for pips in range(7)) for tile in range(TILE_COUNT)
)
"""``END_AFTER[tile][pips]``: the (pips, counts) of an end showing `pips` once
`tile` is laid on it, or None when the tile does not fit there."""

LAID_LEFT: tuple[tuple[list[int] | None, ...], ...] = tuple(
    tuple(None if after is None else [after[0], pips] for pips, after in enumerate(row))
    for row in END_AFTER
)
"""``LAID_LEFT[tile][pips]``: the tile as ``[a, b]`` laid on a left end showing `pips`."""

LAID_RIGHT: tuple[tuple[list[int] | None, ...], ...] = tuple(
    tuple(None if after is None else [pips, after[0]] for pips, after in enumerate(row))
    for row in END_AFTER
)
"""``LAID_RIGHT[tile][pips]``: the tile as ``[a, b]`` laid on a right end showing `pips`."""

EMPTY = 49
"""The key of an empty line; an open line's key is ``7 * left_pips + right_pips``."""


def _plays(tile: int, key: int) -> tuple[JSON, ...]:
    if key == EMPTY:
        return (PLAY_ACTIONS[2 * tile + LEFT],)
    left, right = divmod(key, 7)
    return tuple(
        PLAY_ACTIONS[2 * tile + end]
        for end, pips in enumerate((left, right))
        if END_AFTER[tile][pips] is not None
    )


PLAYS_AT: tuple[tuple[tuple[JSON, ...], ...], ...] = tuple(
    tuple(_plays(tile, key) for key in range(EMPTY + 1)) for tile in range(TILE_COUNT)
)
"""``PLAYS_AT[tile][key]``: the plays of `tile` on the line with this key, left
end first; on an empty line, its one opening play, on the ``"left"`` end."""

ENDS: tuple[list[int], ...] = tuple([key // 7, key % 7] for key in range(EMPTY))
"""Per open line key, ``[left_pips, right_pips]`` (shared: never mutate)."""

ENDS_VIEWS: dict[Ends, JSON] = {
    (left, left_counts, right, right_counts): {
        END_NAMES[0]: {"pips": left, "counts": left_counts},
        END_NAMES[1]: {"pips": right, "counts": right_counts},
    }
    for left in range(7)
    for left_counts in (left, 2 * left)
    for right in range(7)
    for right_counts in (right, 2 * right)
}
"""Every pair of open ends as the observation shows it (shared: never mutate)."""

PLAYS_BY_KEY: tuple[ChunkTables[JSON], ...] = tuple(
    by_chunk([PLAYS_AT[tile][key] for tile in range(TILE_COUNT)]) for key in range(EMPTY + 1)
)
"""Per line key, the `by_chunk` tables of a hand's plays, in the fixed order:
``hand_items(PLAYS_BY_KEY[key], hand)`` lists every legal play of `hand`."""


def credit(count: int) -> int:
    """The points a count scores: itself when a multiple of 5, otherwise nothing."""
    return 0 if count % 5 else count


def opening_ends(tile: int) -> Ends:
    """The ends of a line holding only `tile`: high half left, low half right."""
    high, low = TILES[tile]
    if high == low:
        return high, 2 * high, low, 2 * low
    return high, high, low, low


def ends_after(ends: Ends, tile: int, end: int) -> Ends:
    """The ends once `tile` is laid on `end` (it must fit there)."""
    left_pips, left_counts, right_pips, right_counts = ends
    if end == LEFT:
        left_pips, left_counts = END_AFTER[tile][left_pips]
    else:
        right_pips, right_counts = END_AFTER[tile][right_pips]
    return left_pips, left_counts, right_pips, right_counts


def after_play(ends: Ends | None, tile: int, end: int) -> tuple[Ends, int]:
    """The ends and the count once `tile` is played on `end` of a line with these
    ends (it must fit), or opens an empty line (`ends` None)."""
    if ends is None:
        return opening_ends(tile), PIPS[tile]
    after = ends_after(ends, tile, end)
    return after, after[1] + after[3]


class Line:
    """The tiles on the table, left to right, and its two open ends."""

    __slots__ = ("key", "left_counts", "left_pips", "right_counts", "right_pips", "tiles")

    def __init__(self) -> None:
        self.tiles: list[list[int]] = []
        """The tiles as ``[a, b]`` lists oriented as laid (shared: never mutate)."""
        self.left_pips = self.left_counts = self.right_pips = self.right_counts = 0
        self.key = EMPTY
        """What decides which tiles fit: `EMPTY`, or ``7 * left_pips + right_pips``."""

    def lay(self, tile: int, end: int) -> int:
        """Lay `tile` on `end` (it must fit there; any tile opens); return the count."""
        if self.key == EMPTY:
            self.tiles.append(TILE_VIEWS[tile])
            ends = opening_ends(tile)
            self.left_pips, self.left_counts, self.right_pips, self.right_counts = ends
            self.key = 7 * self.left_pips + self.right_pips
            return PIPS[tile]
        if end == LEFT:
            pips = self.left_pips
            self.tiles.insert(0, LAID_LEFT[tile][pips])
            self.left_pips, self.left_counts = END_AFTER[tile][pips]
        else:
            pips = self.right_pips
            self.tiles.append(LAID_RIGHT[tile][pips])
            self.right_pips, self.right_counts = END_AFTER[tile][pips]
        self.key = 7 * self.left_pips + self.right_pips
        return self.left_counts + self.right_counts

    def ends_view(self) -> JSON | None:
        """The ends as the observation shows them, or None on an empty line."""
        if self.key == EMPTY:
            return None
        return ENDS_VIEWS[self.left_pips, self.left_counts, self.right_pips, self.right_counts]
