"""Mia for the training environments: the action catalogue and the flat encoding.

Plain Python on the bot API's observation dict (no numpy), so a bot file can
carry the same encoding into the jail.

**Actions** are numbered once for every Mia match (`ACTION_COUNT` = 46):
0 roll, 1 vouch, 2 accuse, 3 concede, then ``4 + i`` announce and ``25 + i``
trust of the value ``VALUES[i]`` (31 up to 21, in the 11-high order). An
announce that costs a life (``"cost": 1`` in `legal_actions`) has the number
of the plain announce of its value: a roller's list never holds both.

**The flat encoding** of an observation for `players` seats, every number in
[0, 1], seats counted from the observer (``k`` is the seat ``k`` places after
it, clockwise; 0 is the observer):

- ``players`` numbers: each seat's lives over the most lives any seat started with;
- ``players`` numbers: 1 if that seat is still in the game;
- 21: the standing claim, one-hot by rank in the match's `doubles_order` (0 to 20);
- ``players``: the claimant, one-hot by relative seat;
- 1: the vouches since the last roll over `players`;
- 21: the observer's own dice right after its roll, one-hot by rank.

That is ``3 * players + 43`` numbers.
"""

from __future__ import annotations

from arena.engine import JSON
from arena.games.mia.values import ORDERS

VALUES = ORDERS["11-high"].values
"""The 21 values in the catalogue's order."""
SIMPLE = ("roll", "vouch", "accuse", "concede")
ACTION_COUNT = len(SIMPLE) + 2 * len(VALUES)
_VALUE_SLOT = {value: slot for slot, value in enumerate(VALUES)}


def action_number(action: JSON) -> int:
    """The catalogue number of a Mia action dict (KeyError if it is none)."""
    kind = action["type"]
    if kind in SIMPLE:
        return SIMPLE.index(kind)
    offset = {"announce": len(SIMPLE), "trust": len(SIMPLE) + len(VALUES)}[kind]
    return offset + _VALUE_SLOT[action["value"]]


def encoding_size(players: int) -> int:
    return 3 * players + 43


def encode(observation: JSON) -> list[float]:
    """The flat encoding of a Mia observation (see the module)."""
    players = observation["players"]
    count = len(players)
    me = observation["seat"]
    relative = [players[(me + step) % count] for step in range(count)]
    most = max(observation["rules"]["lives"])
    rank = ORDERS[observation["rules"]["doubles_order"]].rank
    numbers = [player["lives"] / most for player in relative]
    numbers += [1.0 if player["in_game"] else 0.0 for player in relative]
    round_ = observation["round"]
    numbers += _one_hot(rank.get(round_["claim"]), len(VALUES))
    claimant = round_["claimant"]
    numbers += _one_hot(None if claimant is None else (claimant - me) % count, count)
    numbers.append(min(1.0, round_["vouches"] / count))
    dice = observation["dice"]
    numbers += _one_hot(None if dice is None else rank[10 * dice[0] + dice[1]], len(VALUES))
    return numbers


def _one_hot(index: int | None, size: int) -> list[float]:
    numbers = [0.0] * size
    if index is not None:
        numbers[index] = 1.0
    return numbers
