"""Worked examples for "how ratings work", computed by the rating system itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.ratings import Rating, RatingSystem

SETTLED_OPPONENT = Rating(1500.0, 50.0, 200)


@dataclass(frozen=True)
class Example:
    games: int
    band: float
    provisional: bool


def rating_examples(system: RatingSystem, games: Sequence[int]) -> list[Example]:
    """A new bot's band after each count of `games`: 4-seat matches among settled equals,
    finishing first and last in turn (so its value stays near 1500 while its doubt shrinks)."""
    rating, played, rows = system.initial(), 0, []
    for target in sorted(games):
        while played < target:
            places = [1, 2, 3, 4] if played % 2 == 0 else [4, 1, 2, 3]
            table = [rating, SETTLED_OPPONENT, SETTLED_OPPONENT, SETTLED_OPPONENT]
            rating = system.rate(table, places)[0].after
            played += 1
        rows.append(Example(target, system.band(rating), system.is_provisional(rating)))
    return rows
