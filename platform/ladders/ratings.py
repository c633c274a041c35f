"""The ladders' rating system, as the setting chooses it, and how a rating is shown.

Every page, serializer and service asks here, so a rating's band and its
provisional mark are computed in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from arena.ratings import Rating, RatingSystem
from arena.ratings import rating_system as system_named


def rating_system() -> RatingSystem:
    """The system named by `TAVOLO_RATING_SYSTEM`."""
    return system_named(settings.TAVOLO_RATING_SYSTEM)


@dataclass(frozen=True)
class ShownRating:
    """A rating as the pages and the API show it: value +/- band, maybe provisional."""

    value: float
    band: float
    provisional: bool


def rating_shown(rating: Rating) -> ShownRating:
    system = rating_system()
    return ShownRating(rating.value, system.band(rating), system.is_provisional(rating))


def rating_points(value: float) -> int:
    """A rating, a band or a change as people read it: whole points (1523, not 1523.4172)."""
    return round(value)


def initial_deviation() -> float:
    """The deviation of a rating that nothing has been learnt about yet."""
    return rating_system().initial().deviation
