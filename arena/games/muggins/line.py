"""The line of tiles on the table: two open ends and what each end counts.

There is one line and no branches; doubles lie crosswise. An end shows the
pips of its exposed half and *counts* those pips, or both halves of a double
sitting at that end. The opening tile lies with its high half to the left and
its low half to the right; a play's count is the sum of the two ends' counts
after it, except the opening play, which counts the tile's pips with a double
once (5-5 counts 10, where its two ends count 10 each). A count scores when it
is a multiple of 5.

Ends are also passed around as plain ``(left_pips, left_counts, right_pips,
right_counts)`` tuples (`Ends`), which is how the bots look ahead. The engine
keeps them as one small int, a code (see `EMPTY`), and looks every play up in
tables built at import (`LAYS`): the ends after it, the tile as laid and its
play event.
"""

from __future__ import annotations

from itertools import combinations

from arena.engine import JSON
from arena.games.muggins.tiles import (
    END_NAMES,
    IS_DOUBLE,
    LEFT,
    PIPS,
    PLAY_ACTIONS,
    RIGHT,
    TILE_BITS,
    TILE_COUNT,
    TILE_VIEWS,
    TILES,
    ChunkTables,
    by_chunk,
    hand_of,
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

EMPTY_KEY = 49
"""The key of an empty line; an open line's key is ``7 * left_pips + right_pips``."""


def _plays(tile: int, key: int) -> tuple[JSON, ...]:
    if key == EMPTY_KEY:
        return (PLAY_ACTIONS[2 * tile + LEFT],)
    left, right = divmod(key, 7)
    return tuple(
        PLAY_ACTIONS[2 * tile + end]
        for end, pips in enumerate((left, right))
        if END_AFTER[tile][pips] is not None
    )


PLAYS_AT: tuple[tuple[tuple[JSON, ...], ...], ...] = tuple(
    tuple(_plays(tile, key) for key in range(EMPTY_KEY + 1)) for tile in range(TILE_COUNT)
)
"""``PLAYS_AT[tile][key]``: the plays of `tile` on the line with this key, left
end first; on an empty line, its one opening play, on the ``"left"`` end."""

ENDS: tuple[list[int], ...] = tuple([key // 7, key % 7] for key in range(EMPTY_KEY))
"""Per open line key, ``[left_pips, right_pips]`` (shared: never mutate)."""


def _plays_by_key() -> tuple[ChunkTables[JSON], ...]:
    shared: dict[tuple[int, ...], tuple[JSON, ...]] = {}
    return tuple(
        by_chunk([PLAYS_AT[tile][key] for tile in range(TILE_COUNT)], shared)
        for key in range(EMPTY_KEY + 1)
    )


PLAYS_BY_KEY: tuple[ChunkTables[JSON], ...] = _plays_by_key()
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


# -- the engine's line: ends as one small int, every play looked up ------------

EMPTY = 4 * EMPTY_KEY
"""The code of an empty line's ends. Open ends have the code ``4 * key +
2 * left_doubled + right_doubled``, where `key` is the line key and an end is
doubled when it counts twice its pips (a double lies crosswise there)."""


def _open_ends(code: int) -> Ends:
    key, doubled = divmod(code, 4)
    left, right = divmod(key, 7)
    left_counts = 2 * left if doubled & 2 else left
    right_counts = 2 * right if doubled & 1 else right
    return left, left_counts, right, right_counts


OPEN_ENDS: tuple[Ends, ...] = tuple(_open_ends(code) for code in range(EMPTY))
"""The open ends of each code below `EMPTY` (a zero end is the same doubled or not)."""

CODE_OF_ENDS: dict[Ends, int] = {ends: code for code, ends in enumerate(OPEN_ENDS)}

ENDS_VIEWS: tuple[JSON | None, ...] = (
    *(
        {
            END_NAMES[0]: {"pips": left, "counts": left_counts},
            END_NAMES[1]: {"pips": right, "counts": right_counts},
        }
        for left, left_counts, right, right_counts in OPEN_ENDS
    ),
    None,
)
"""Per ends code, the ends as the observation shows them, None for an empty
line (shared: never mutate)."""

Lay = tuple[int, list[int], bool, int, JSON]
"""What laying a tile on some ends gives: ``(ends code after, the tile as laid
[a, b], whether it goes on the right, the points it scores, the play event)``."""


def _lay(code: int, move: int) -> Lay | None:
    tile, end = divmod(move, 2)
    if code == EMPTY:
        if end != LEFT:
            return None
        laid = TILE_VIEWS[tile]
        after, count = after_play(None, tile, end)
    else:
        ends = OPEN_ENDS[code]
        pips = ends[2 * end]
        if END_AFTER[tile][pips] is None:
            return None
        laid = (LAID_LEFT if end == LEFT else LAID_RIGHT)[tile][pips]
        after, count = after_play(ends, tile, end)
    event = {
        "type": "play",
        "seat": 0,
        "tile": TILE_VIEWS[tile],
        "end": END_NAMES[end],
        "ends": ENDS[7 * after[0] + after[2]],
        "count": count,
        "credit": credit(count),
        "score": 0,
    }
    return CODE_OF_ENDS[after], laid, end == RIGHT, event["credit"], event


def _lays() -> tuple[tuple[Lay | None, ...], ...]:
    # The same move giving the same ends and laid tile (from ends that differ
    # only in whether the end it covers was doubled) is one shared lay.
    shared: dict[tuple[int, int, int], Lay] = {}
    rows = []
    for code in range(EMPTY + 1):
        row = []
        for move in range(len(PLAY_ACTIONS)):
            lay = _lay(code, move)
            if lay is not None:
                lay = shared.setdefault((move, lay[0], id(lay[1])), lay)
            row.append(lay)
        rows.append(tuple(row))
    return tuple(rows)


LAYS: tuple[tuple[Lay | None, ...], ...] = _lays()
"""``LAYS[code][move]``: laying ``move = 2 * tile + end`` on the ends with this
code, or None where it does not fit. Its play event has every field but
``seat`` and ``score``, which are 0: a template to copy (never mutate it)."""

PLAYS_ON: tuple[ChunkTables[JSON], ...] = tuple(
    PLAYS_BY_KEY[code >> 2] for code in range(EMPTY + 1)
)
"""`PLAYS_BY_KEY` per ends code: ``hand_items(PLAYS_ON[code], hand)`` lists
every legal play of `hand`."""

FITTING: tuple[int, ...] = tuple(
    hand_of([tile for tile in range(TILE_COUNT) if PLAYS_AT[tile][code >> 2]])
    for code in range(EMPTY + 1)
)
"""Per ends code, the tiles that have a play there, as a hand (bitmask)."""

FEW_FITTING = 2
"""A hand with at most this many tiles that fit the ends has its plays listed
ahead (`FEW_PLAYS`): that is most hands on most turns."""


def _few_plays() -> tuple[dict[int, list[JSON]], ...]:
    shared: dict[tuple[int, ...], list[JSON]] = {}  # equal lists are one list
    by_key = []
    for key in range(EMPTY_KEY + 1):
        fitting = [tile for tile in range(TILE_COUNT) if PLAYS_AT[tile][key]]
        few = {}
        for count in range(FEW_FITTING + 1):
            for tiles in combinations(fitting, count):
                plays = [play for tile in tiles for play in PLAYS_AT[tile][key]]
                few[hand_of(tiles)] = shared.setdefault(tuple(map(id, plays)), plays)
        by_key.append(few)
    return tuple(by_key[code >> 2] for code in range(EMPTY + 1))


FEW_PLAYS: tuple[dict[int, list[JSON]], ...] = _few_plays()
"""Per ends code, the plays of each hand of at most `FEW_FITTING` tiles that fit
there (a hand masked by `FITTING`), in the fixed order, as lists to hand out as
a seat's legal actions (shared: never mutate). A hand with no play gets an
empty list."""

TILE_PLAYS_ON: tuple[tuple[list[JSON], ...], ...] = tuple(
    tuple(FEW_PLAYS[code][TILE_BITS[tile] & FITTING[code]] for tile in range(TILE_COUNT))
    for code in range(EMPTY + 1)
)
"""``TILE_PLAYS_ON[code][tile]``: the plays of one tile, from `FEW_PLAYS`."""
