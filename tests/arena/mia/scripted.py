"""`ScriptedDice`: a stand-in for the state's `random.Random` that rolls chosen dice.

A test seam: ``MiaState(game, rng=ScriptedDice(starter=0, rolls=[(4, 2), (2, 1)]))``
makes seat 0 start and the next rolls come out 42 then 21, in that order.
"""

from __future__ import annotations

from collections.abc import Iterable


class ScriptedDice:
    """Answers the state's two kinds of draw (see `arena.games.mia.state.Chance`)."""

    def __init__(self, starter: int, rolls: Iterable[tuple[int, int]] = ()) -> None:
        self.starter = starter
        self.rolls = list(rolls)
        self.used = 0

    def add(self, *rolls: tuple[int, int]) -> None:
        """Script more rolls after the ones already given."""
        self.rolls.extend(rolls)

    def randrange(self, stop: int, /) -> int:
        if not 0 <= self.starter < stop:
            raise ValueError(f"scripted starter {self.starter} is not a seat below {stop}")
        return self.starter

    def random(self) -> float:
        """The fraction that `MiaState` maps to the next scripted pair of dice."""
        if self.used == len(self.rolls):
            raise LookupError(f"only {len(self.rolls)} rolls were scripted")
        first, second = self.rolls[self.used]
        self.used += 1
        if not (1 <= first <= 6 and 1 <= second <= 6):
            raise ValueError(f"({first}, {second}) are not two dice")
        return ((first - 1) * 6 + (second - 1) + 0.5) / 36
