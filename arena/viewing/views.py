"""Views of a table: the whole truth, the public's, or what one seat knew."""

from __future__ import annotations

FULL = "full"
PUBLIC = "public"

View = str | int
"""``"full"``, ``"public"``, or a seat number."""


def parse_view(view: object, players: int) -> View:
    """`view` checked: "full", "public" or a seat of the match; ValueError otherwise."""
    if view in (FULL, PUBLIC):
        return str(view)
    if isinstance(view, str) and view.isdigit():
        view = int(view)
    if isinstance(view, int) and not isinstance(view, bool) and 0 <= view < players:
        return view
    raise ValueError(
        f"view must be 'full', 'public' or a seat from 0 to {players - 1}, not {view!r}"
    )


def sees(view: View, seat: int) -> bool:
    """Whether `view` sees what only `seat` knows (its dice, its tiles)."""
    return view in (FULL, seat)
