"""Words both games' transcripts use."""

from __future__ import annotations

from arena.engine import JSON


def places_text(places: list[int], names: list[str]) -> str:
    """``1. alice, 2. bob, ...`` in order of place."""
    ranking = sorted(range(len(places)), key=places.__getitem__)
    return ", ".join(f"{places[seat]}. {names[seat]}" for seat in ranking)


def generic_text(event: JSON) -> str:
    """``type key=value ...``: any event a table has no words for."""
    rest = " ".join(f"{key}={value}" for key, value in event.items() if key != "type")
    return f"{event.get('type', '?')} {rest}".rstrip()
