"""The built-in Mia bots, by name: factories from a seed to an `act` function."""

from __future__ import annotations

import random
from collections.abc import Callable

from arena.engine import JSON
from arena.games.mia.strong import strong_bot

Act = Callable[[JSON], JSON]


def random_bot(seed: int) -> Act:
    """Uniform over the legal actions that cost nothing by themselves, from its
    own `random.Random(seed)`: it never announces low on purpose.

    (``random()`` scaled to the list, rather than ``choice``: a third of the cost
    in the hottest call of a match, and as uniform as 53 bits allow. The costly
    announces come last in the list, so the check of the last one is all most
    calls pay.)
    """
    draw = random.Random(seed).random

    def act(observation: JSON) -> JSON:
        legal = observation["legal_actions"]
        if "cost" in legal[-1]:
            legal = [action for action in legal if "cost" not in action]
        return legal[int(draw() * len(legal))]

    return act


BUILTIN_BOTS: dict[str, Callable[[int], Act]] = {"random": random_bot, "strong": strong_bot}
