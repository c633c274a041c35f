"""Play a format to the end with made-up places: the formats never need a real match."""

from __future__ import annotations

import random
from collections.abc import Callable

from arena.tournaments import Format, TableResult


def play_out(
    event: Format, places: Callable[[tuple[int, ...]], tuple[int, ...]]
) -> tuple[list[TableResult], int]:
    """Feed `places(seats)` for every table until the format is done: (results, steps)."""
    results: list[TableResult] = []
    steps = 0
    while tables := event.next_tables(results):
        steps += 1
        assert steps < 10_000, "the format never ends"
        results += [TableResult(table, places(table.seats)) for table in tables]
    return results, steps


def shuffled_places(seed: int) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """Places in a random order, drawn from `seed`."""
    draw = random.Random(seed)

    def places(seats: tuple[int, ...]) -> tuple[int, ...]:
        order = list(range(1, len(seats) + 1))
        draw.shuffle(order)
        return tuple(order)

    return places


def best_seed_wins(seats: tuple[int, ...]) -> tuple[int, ...]:
    """The lower entrant number (the better seed) always finishes ahead."""
    ranking = sorted(seats)
    return tuple(ranking.index(entrant) + 1 for entrant in seats)
