"""Worked examples for "how ratings work", computed by the rating system itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.ratings import Past, Rating, RatingSystem, Record, pairwise_score

SETTLED_OPPONENT = Rating(1500.0, 50.0, 200)


@dataclass(frozen=True)
class Example:
    games: int
    band: float
    provisional: bool


def rating_examples(system: RatingSystem, games: Sequence[int]) -> list[Example]:
    """A new bot's band after each count of `games`: 4-seat matches among settled equals,
    finishing first and last in turn (so its value stays near 1500 while its doubt shrinks)."""
    start = rating = system.initial()
    played, pairs, points, rows = 0, 0, 0.0, []
    settled = Past(SETTLED_OPPONENT)
    for target in sorted(games):
        while played < target:
            places = [1, 2, 3, 4] if played % 2 == 0 else [4, 1, 2, 3]
            table = [rating, SETTLED_OPPONENT, SETTLED_OPPONENT, SETTLED_OPPONENT]
            past = Past(start, (Record(SETTLED_OPPONENT, pairs, points),) if pairs else ())
            rating = system.rate(table, places, [past, settled, settled, settled])[0].after
            played, pairs = played + 1, pairs + 3
            points += sum(pairwise_score(places[0], other) for other in places[1:])
        rows.append(Example(target, system.band(rating), system.is_provisional(rating)))
    return rows
