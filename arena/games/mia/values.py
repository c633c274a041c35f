"""The 21 Mia values, their two orders, their chances, and the action dicts.

Everything here is built once at import. A value is an int that reads like the
roll (42 is a 4 and a 2, 21 is Mia). A rank is a value's position in an order,
0 for the lowest (31) up to 20 for Mia; "no claim yet" has rank -1, below all.

The action dicts are shared objects: legal-action lists and events hold these
very dicts, so nobody may mutate them.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.engine import JSON

MIA = 21
LOWEST = 31
"""The lowest value in both doubles orders."""
NO_CLAIM_RANK = -1

DOUBLES_ORDERS = ("11-high", "66-high")
"""Rule option `doubles_order`: which double ranks highest (RULES.md 1.1)."""

_MIXED_LOWEST_FIRST = (LOWEST, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65)
_DOUBLES_11_HIGH = (66, 55, 44, 33, 22, 11)

ROLL: JSON = {"type": "roll"}
VOUCH: JSON = {"type": "vouch"}
ACCUSE: JSON = {"type": "accuse"}
CONCEDE: JSON = {"type": "concede"}


def is_double(value: int) -> bool:
    """True for 11, 22, ..., 66."""
    return value % 11 == 0


PROBABILITY: dict[int, float] = {
    value: (1 if is_double(value) else 2) / 36
    for value in (*_MIXED_LOWEST_FIRST, *_DOUBLES_11_HIGH, MIA)
}
"""The chance of each value on one roll of two dice."""

ANNOUNCE: dict[int, JSON] = {value: {"type": "announce", "value": value} for value in PROBABILITY}
COSTLY_ANNOUNCE: dict[int, JSON] = {
    value: {"type": "announce", "value": value, "cost": 1} for value in PROBABILITY
}
"""The announces that are not strictly higher than the claim, as `legal_actions`
lists them: each costs its announcer 1 life at once (RULES.md 1.4)."""
TRUST: dict[int, JSON] = {value: {"type": "trust", "value": value} for value in PROBABILITY}

OUTCOMES: tuple[tuple[list[int], int], ...] = tuple(
    ([max(first, second), min(first, second)], 10 * max(first, second) + min(first, second))
    for first in range(1, 7)
    for second in range(1, 7)
)
"""The 36 equally likely rolls: the dice as ``[high, low]`` and their value."""


@dataclass(frozen=True, eq=False)
class ValueOrder:
    """One `doubles_order`: the 21 values ranked, with lookup tables by rank.

    Lists indexed by ``rank + 1`` take rank -1 ("no claim") at index 0.
    """

    name: str
    values: tuple[int, ...]
    """Lowest first: ``values[rank]`` is the value of that rank."""
    rank: dict[int, int]
    announces_above: tuple[list[JSON], ...]
    """``[rank + 1]``: the announce actions strictly higher than that rank."""
    announces_over: tuple[list[JSON], ...]
    """``[rank + 1]``: every announce a roller may make over that rank: the
    strictly higher ones, then the costly equal-or-lower ones, each part lowest
    first."""
    trusts_above: tuple[list[JSON], ...]
    """``[rank + 1]``: the trust actions strictly higher than that rank."""
    beat_chance: tuple[float, ...]
    """``[rank + 1]``: the chance that a fresh roll is strictly higher."""
    hold_chance: tuple[float, ...]
    """``[rank]``: the chance that a fresh roll is equal or higher (a claim holds)."""

    @classmethod
    def build(cls, name: str, values: tuple[int, ...]) -> ValueOrder:
        above = [values[rank + 1 :] for rank in range(NO_CLAIM_RANK, len(values))]
        return cls(
            name=name,
            values=values,
            rank={value: rank for rank, value in enumerate(values)},
            announces_above=tuple([ANNOUNCE[value] for value in higher] for higher in above),
            announces_over=tuple(
                [ANNOUNCE[value] for value in values[rank + 1 :]]
                + [COSTLY_ANNOUNCE[value] for value in values[: rank + 1]]
                for rank in range(NO_CLAIM_RANK, len(values))
            ),
            trusts_above=tuple([TRUST[value] for value in higher] for higher in above),
            beat_chance=tuple(sum(PROBABILITY[value] for value in higher) for higher in above),
            hold_chance=tuple(
                sum(PROBABILITY[value] for value in values[rank:]) for rank in range(len(values))
            ),
        )


ORDERS: dict[str, ValueOrder] = {
    "11-high": ValueOrder.build("11-high", (*_MIXED_LOWEST_FIRST, *_DOUBLES_11_HIGH, MIA)),
    "66-high": ValueOrder.build("66-high", (*_MIXED_LOWEST_FIRST, *_DOUBLES_11_HIGH[::-1], MIA)),
}
