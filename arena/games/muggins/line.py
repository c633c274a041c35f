"""The line of tiles on the table, and what a play on it scores (RULES.md 2.3, 2.4).

There is one line with two open ends and no branches. The engine and the bots
see its ends as `Ends`, ``(left_pips, left_counts, right_pips, right_counts)``:
the pips an end shows, and what it counts toward a play's score.
"""

from __future__ import annotations

from arena.engine import JSON
from arena.games.muggins.tiles import END_NAMES, LEFT, PIPS, PLAY_ACTIONS, TILE_COUNT, TILES

Ends = tuple[int, int, int, int]
"""``(left_pips, left_counts, right_pips, right_counts)``."""


def end_after(tile: int, pips: int) -> tuple[int, int] | None:
    """The end left by laying `tile` on an end showing `pips`, as ``(pips, counts)``,
    or None when the tile does not fit there (RULES.md 2.3, 2.4).

    A tile fits an end that shows one of its halves; its other half becomes the
    end. **What a double counts at an end**: a double lies crosswise and never
    opens a branch; while it sits at an end, that end counts both its halves
    (6-6 at an end counts 12). Once another tile continues it, the new end
    counts as usual, and the double nothing by itself.
    """
    high, low = TILES[tile]
    if pips not in (high, low):
        return None
    other = low if pips == high else high
    return other, 2 * other if high == low else other


END_AFTER: tuple[tuple[tuple[int, int] | None, ...], ...] = tuple(
    tuple(end_after(tile, pips) for pips in range(7)) for tile in range(TILE_COUNT)
)
"""``END_AFTER[tile][pips]``: `end_after` for every tile and end, looked up by
the engine at every play and by the bots at every look ahead."""


def opening_ends(tile: int) -> Ends:
    """The ends of a line holding only `tile`: its high half left, low half right;
    each end of an opening double counts both halves, as any double at an end."""
    high, low = TILES[tile]
    if high == low:
        return high, 2 * high, low, 2 * low
    return high, high, low, low


def opening_count(tile: int) -> int:
    """**The opening count** (RULES.md 2.4): a line of one tile counts that tile's
    pips, a double once (5-5 scores 10, not the 20 of its two ends)."""
    return PIPS[tile]


def credit(count: int) -> int:
    """The points a count scores: itself when a multiple of 5, otherwise nothing
    (counts are never negative, and 0 scores nothing either way)."""
    return 0 if count % 5 else count


def after_play(ends: Ends | None, tile: int, end: int) -> tuple[Ends, int]:
    """The ends and the count once `tile` is played on `end` of a line with these
    ends (it must fit there), or opens an empty line (`ends` None).

    After every play but the opening one, the count is the sum of what the two
    ends count (RULES.md 2.4: one end is 3, a 6-6 goes on the other: 3 + 12).
    """
    if ends is None:
        return opening_ends(tile), opening_count(tile)
    left_pips, left_counts, right_pips, right_counts = ends
    if end == LEFT:
        after = END_AFTER[tile][left_pips]
        if after is not None:
            left_pips, left_counts = after
    else:
        after = END_AFTER[tile][right_pips]
        if after is not None:
            right_pips, right_counts = after
    if after is None:
        raise ValueError(f"tile {TILES[tile]} does not fit the {END_NAMES[end]} end")
    return (left_pips, left_counts, right_pips, right_counts), left_counts + right_counts


EMPTY_LINE = 49
"""The `PLAYS_ON` row of an empty line; an open line's row is
``7 * left_pips + right_pips``."""


def _plays(tile: int, row: int) -> tuple[JSON, ...]:
    if row == EMPTY_LINE:
        return (PLAY_ACTIONS[tile][LEFT],)  # the opening play is any tile, on "left"
    shown = divmod(row, 7)
    return tuple(
        PLAY_ACTIONS[tile][end] for end in (0, 1) if END_AFTER[tile][shown[end]] is not None
    )


PLAYS_ON: tuple[tuple[tuple[JSON, ...], ...], ...] = tuple(
    tuple(_plays(tile, row) for tile in range(TILE_COUNT)) for row in range(EMPTY_LINE + 1)
)
"""``PLAYS_ON[row][tile]``: the legal plays of `tile` on a line, left end first
(a tile that fits both ends has two). Listing a seat's legal actions is then
one lookup per tile held, the cost of nearly every turn."""


def row_of(ends: Ends | None) -> int:
    """The `PLAYS_ON` row of a line with these ends."""
    return EMPTY_LINE if ends is None else 7 * ends[0] + ends[2]


def plays(hand: list[int], ends: Ends | None) -> list[JSON]:
    """Every legal play of `hand` on the line, in the engine's fixed order: hand
    order (heaviest tile first), the left end before the right."""
    on_line = PLAYS_ON[row_of(ends)]
    return [play for tile in hand for play in on_line[tile]]
