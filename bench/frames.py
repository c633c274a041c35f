"""Frames of long replays: the time to make them and their size.

    uv run python bench/frames.py [--repeats 3]

For one seeded match per set-up between in-process `builtin:strong` bots, it
prints the events, the median time of `frames_document` for the full view, the
public view and a live poll's tail (the last 10 events, `since`), the time of
`json.dumps` of the full view, and that document's size plain and gzipped.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.games import make_game
from arena.runner import play_match
from arena.viewing import frames_document

SET_UPS = [("mia", 4), ("muggins", 2), ("muggins", 4)]


def median_seconds(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measures(replay: dict, repeats: int) -> list[str]:
    """The times and sizes of one replay's frames, as table cells."""
    tail = len(replay["events"]) - 10
    full = frames_document(replay, view="full")
    text = json.dumps(full, separators=(",", ":")).encode()
    works = [
        lambda: frames_document(replay, view="full"),
        lambda: frames_document(replay, view="public"),
        lambda: frames_document(replay, view="public", since=tail),
        lambda: json.dumps(full, separators=(",", ":")),
    ]
    times = [f"{median_seconds(work, repeats) * 1000:,.0f} ms" for work in works]
    sizes = [f"{len(text) / 1024:,.0f} KiB", f"{len(gzip.compress(text)) / 1024:,.0f} KiB"]
    return times + sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    table = Table(title="frames_document")
    for column in ("match", "events", "full", "public", "tail", "dumps", "size", "gzipped"):
        table.add_column(column, justify="right")
    for game_name, players in SET_UPS:
        strong = builtin_bots(game_name)["strong"]
        bots = [InProcessBot(f"strong {seat}", strong(seat)) for seat in range(players)]
        replay = play_match(make_game(game_name, players), bots, seed=1).replay
        events = len(replay["events"])
        table.add_row(f"{game_name} {players}p", f"{events:,}", *measures(replay, repeats))
    Console().print(table)


if __name__ == "__main__":
    main()
