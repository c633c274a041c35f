"""A readable transcript of a replay, one line per event.

Each game may describe its own events with a narrator
(``arena.games.<game>.transcript.Narrator(seats)``, whose
``describe(event) -> str | None`` may keep state, such as the line of tiles);
anything it does not describe is shown generically, so a transcript never
fails on a new event.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator

from arena.engine import JSON

Describe = Callable[[JSON], "str | None"]


def _narrator(game: str, seats: list[str]) -> Describe:
    try:
        module = importlib.import_module(f"arena.games.{game}.transcript")
    except ModuleNotFoundError:
        return lambda event: None
    return module.Narrator(seats).describe


def generic_line(event: JSON, seats: list[str]) -> str:
    """`type  seat-name  key=value ...` for any event."""
    parts = [str(event.get("type", "?"))]
    if isinstance(event.get("seat"), int) and 0 <= event["seat"] < len(seats):
        parts.append(seats[event["seat"]])
    parts += [f"{key}={value}" for key, value in event.items() if key not in ("type", "seat")]
    return "  ".join(parts)


def transcript_lines(replay: JSON) -> Iterator[str]:
    """The header, every event, and the result, as lines of text."""
    seats = [f"{seat['bot']} (seat {seat['seat']})" for seat in replay["seats"]]
    yield f"{replay['game']} {replay['rules'].get('variant') or ''}".rstrip()
    yield f"rules: {replay['rules']}"
    yield f"seed: {replay['seed']}   started: {replay.get('started_at', '?')}"
    for seat in seats:
        yield f"  {seat}"
    describe = _narrator(replay["game"], seats)
    for index, event in enumerate(replay["events"]):
        text = describe(event)
        if text == "":
            continue  # the narrator hides it: its consequences say the same
        yield f"{index:5d}  {text or generic_line(event, seats)}"
    places = replay.get("result", {}).get("places", [])
    ranking = sorted(range(len(places)), key=places.__getitem__)
    yield "result: " + ", ".join(f"{places[seat]}. {seats[seat]}" for seat in ranking)
