"""Ratings of bots on a ladder: one rating system, chosen by name, behind one protocol.

The platform stores a `Rating` per version and asks the chosen system to rate
finished matches, to start a new version, and for a rating's band and whether
it is provisional; the pages and the API show what it answers. Adding a system
is one module here and one entry in `SYSTEMS`.
"""

from __future__ import annotations

from arena.ratings.base import (
    ELO_SCALE,
    INITIAL_RATING,
    Past,
    RatedSeat,
    Rating,
    RatingSystem,
    Record,
    expected_score,
    pairwise_score,
    table_results,
)
from arena.ratings.elo import FallingKElo
from arena.ratings.glicko import EloScaleGlicko
from arena.ratings.refit import RefitGlicko

SYSTEMS: dict[str, RatingSystem] = {
    "refit": RefitGlicko(),
    "glicko": EloScaleGlicko(),
    "elo": FallingKElo(),
}
DEFAULT_SYSTEM = "refit"


def rating_system(name: str = DEFAULT_SYSTEM) -> RatingSystem:
    """The rating system called `name`; ValueError naming the known ones otherwise."""
    try:
        return SYSTEMS[name]
    except KeyError:
        raise ValueError(f"no rating system {name!r}; choose one of {sorted(SYSTEMS)}") from None


__all__ = [
    "DEFAULT_SYSTEM",
    "ELO_SCALE",
    "INITIAL_RATING",
    "SYSTEMS",
    "Past",
    "RatedSeat",
    "Rating",
    "RatingSystem",
    "Record",
    "expected_score",
    "pairwise_score",
    "rating_system",
    "table_results",
]
