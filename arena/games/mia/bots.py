"""The built-in Mia bots, by name: factories from a seed to an `act` function."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import floor

from arena.engine import JSON
from arena.games.mia.strong import strong_bot
from arena.games.mia.values import COSTLY_ANNOUNCE, LOWEST

Act = Callable[[JSON], JSON]

FIRST_COSTLY = COSTLY_ANNOUNCE[LOWEST]
"""The costly announce that starts the costly part of a roller's legal actions
whenever there is one (`ValueOrder.announces_over`)."""


def random_bot(seed: int) -> Act:
    """Uniform over the legal actions that cost nothing by themselves, from its
    own `random.Random(seed)`: it never announces low on purpose.

    (``random()`` scaled to the free part of the list, rather than ``choice``:
    a third of the cost in the hottest call of a match, and as uniform as 53
    bits allow. The costly announces come last in the list, lowest first, so
    the free ones are the actions before the costly announce of the lowest
    value: `list.index` finds it in C, where filtering the list cost a tenth of
    a match's time. `math.floor` picks the same index as ``int()`` would, at
    half the cost of a call to ``int``.)
    """
    draw = random.Random(seed).random

    def act(observation: JSON) -> JSON:
        legal: list[JSON] = observation["legal_actions"]
        free = legal.index(FIRST_COSTLY) if "cost" in legal[-1] else len(legal)
        return legal[floor(draw() * free)]

    return act


BUILTIN_BOTS: dict[str, Callable[[int], Act]] = {"random": random_bot, "strong": strong_bot}
