"""Muggins for the training environments: the action catalogue and the flat encoding.

Plain Python on the bot API's observation dict (no numpy), so a bot file can
carry the same encoding into the jail.

**Actions** are numbered once for every Muggins match (`ACTION_COUNT` = 56):
``2 * tile + end``, where ``tile`` is the tile's place in the set from the
heaviest (0 is 6-6, 1 is 6-5, ..., 27 is 0-0) and ``end`` is 0 for left and 1
for right: the engine's own move numbers.

**The flat encoding** of an observation for `players` seats, every number in
[-1, 1], seats counted from the observer (``k`` is the seat ``k`` places after
it; 0 is the observer):

- 28 numbers per tile, three times: 1 if the tile is in the observer's hand;
  on the table; drawn by the observer this turn;
- 7 and 7: the pips showing at the left and at the right end, one-hot (all 0
  before the opening play);
- 2: what the left and the right end count, over 12;
- ``players``: each seat's score over the target (cut to [-1, 1]);
- ``players``: each seat's hand size over 28;
- 1: the tiles left in the boneyard over 28.

That is ``2 * players + 101`` numbers.
"""

from __future__ import annotations

from arena.engine import JSON
from arena.games.muggins.tiles import END_NAMES, TILE_COUNT, TILE_INDEX

ACTION_COUNT = 2 * TILE_COUNT
"""A play of each tile on each end: ``2 * tile + end``."""
PIP_VALUES = 7
MOST_AT_AN_END = 12


def action_number(action: JSON) -> int:
    """The catalogue number of a Muggins action dict (KeyError if it is none)."""
    if action["type"] != "play":
        raise KeyError(action["type"])
    high, low = action["tile"]
    return 2 * TILE_INDEX[high, low] + END_NAMES.index(action["end"])


def encoding_size(players: int) -> int:
    return 2 * players + 101


def encode(observation: JSON) -> list[float]:
    """The flat encoding of a Muggins observation (see the module)."""
    numbers: list[float] = []
    for tiles in (observation["hand"], observation["line"], observation["drawn"]):
        numbers += _tile_set(tiles)
    ends = observation["ends"]
    for end in END_NAMES:
        numbers += _one_hot(None if ends is None else ends[end]["pips"], PIP_VALUES)
    for end in END_NAMES:
        numbers.append(0.0 if ends is None else ends[end]["counts"] / MOST_AT_AN_END)
    players = observation["players"]
    count = len(players)
    me = observation["seat"]
    relative = [players[(me + step) % count] for step in range(count)]
    target = observation["target"]
    numbers += [max(-1.0, min(1.0, player["score"] / target)) for player in relative]
    numbers += [player["hand_size"] / TILE_COUNT for player in relative]
    numbers.append(observation["boneyard"] / TILE_COUNT)
    return numbers


def _tile_set(tiles: list[list[int]]) -> list[float]:
    numbers = [0.0] * TILE_COUNT
    for high, low in tiles:
        numbers[TILE_INDEX[high, low]] = 1.0
    return numbers


def _one_hot(index: int | None, size: int) -> list[float]:
    numbers = [0.0] * size
    if index is not None:
        numbers[index] = 1.0
    return numbers
