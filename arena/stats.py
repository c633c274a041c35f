"""Win rates with confidence intervals, and per-bot tallies over a series."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

NOTES_KEPT = 3
"""Distinct problems kept per bot to show the author why it was penalised."""

Z_95 = 1.959963984540054

INFRACTIONS_PER_MATCH_WARNED = 1.0
"""A bot with more infractions than this per match, on average, gets a loud
warning from `tavolo play`: its results say little about how it plays, and the
server's qualification rejects a version with about as many."""


def wilson_interval(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 or
    all wins, which short local series often hit.
    """
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    low = 0.0 if wins == 0 else max(0.0, centre - spread)
    high = 1.0 if wins == games else min(1.0, centre + spread)
    return (low, high)


@dataclass
class BotTally:
    """One bot's totals over a series of matches."""

    name: str
    games: int = 0
    wins: int = 0
    place_sum: int = 0
    infractions: int = 0
    crashes: int = 0
    notes: list[str] = field(default_factory=list)
    log_tail: str = ""

    def note(self, problem: str, *, log: str = "") -> None:
        """Keep the first few distinct problems, and the log of the first crash."""
        if problem not in self.notes and len(self.notes) < NOTES_KEPT:
            self.notes.append(problem)
        if log and not self.log_tail:
            self.log_tail = log[-4000:]

    def add(self, *, place: int, infractions: int, crashed: bool) -> None:
        self.games += 1
        self.wins += place == 1
        self.place_sum += place
        self.infractions += infractions
        self.crashes += crashed

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def too_many_infractions(self) -> bool:
        """More than `INFRACTIONS_PER_MATCH_WARNED` infractions per match."""
        return self.infractions > INFRACTIONS_PER_MATCH_WARNED * self.games

    @property
    def mean_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "mean_place": round(self.mean_place, 4),
            "infractions": self.infractions,
            "crashes": self.crashes,
        }
