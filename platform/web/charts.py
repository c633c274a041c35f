"""Charts drawn on the server as inline SVG coordinates: no JavaScript, no chart library.

Each function returns numbers for a template's ``<svg>`` elements (attributes
only, never a style, so the Content-Security-Policy holds).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

SPARK_WIDTH, SPARK_HEIGHT = 120, 24
CHART_WIDTH, CHART_HEIGHT = 600, 160
BAR_HEIGHT = 100
MARGIN = 4


def _scaled(
    values: Sequence[float], low: float, high: float, width: float, height: float
) -> Iterator[tuple[float, float]]:
    """(x, y) of each value, evenly spaced across, `low` at the bottom and `high` at the top."""
    spread = (high - low) or 1.0
    step = (width - 2 * MARGIN) / max(1, len(values) - 1)
    tall = height - 2 * MARGIN
    for index, value in enumerate(values):
        yield MARGIN + index * step, height - MARGIN - (value - low) / spread * tall


def _points(pairs: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pairs)


def sparkline_points(
    values: Sequence[float], width: float = SPARK_WIDTH, height: float = SPARK_HEIGHT
) -> str:
    """The ``points`` of an SVG polyline through `values`, scaled to fill width x height."""
    if len(values) < 2:
        return ""
    return _points(_scaled(values, min(values), max(values), width, height))


@dataclass(frozen=True)
class RatingPoint:
    """A rating after a match, its band then (± points) and the version that played."""

    rating: float
    band: float
    version: int


@dataclass(frozen=True)
class VersionMark:
    x: float
    label: str


@dataclass(frozen=True)
class RatingChart:
    """A rating history: the line, its band shaded around it, and where versions began."""

    line: str
    band: str
    versions: list[VersionMark]
    low: float
    high: float
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT


def rating_chart(points: Sequence[RatingPoint]) -> RatingChart | None:
    """The chart of `points` (oldest first); None with fewer than two."""
    if len(points) < 2:
        return None
    ratings = [point.rating for point in points]
    bands = [point.band for point in points]
    upper = [rating + band for rating, band in zip(ratings, bands, strict=True)]
    lower = [rating - band for rating, band in zip(ratings, bands, strict=True)]
    low, high = min(lower), max(upper)

    def scaled(values: Sequence[float]) -> list[tuple[float, float]]:
        return list(_scaled(values, low, high, CHART_WIDTH, CHART_HEIGHT))

    line = scaled(ratings)
    versions = [
        VersionMark(x, f"v{point.version}")
        for (x, _), point, previous in zip(line[1:], points[1:], points[:-1], strict=True)
        if point.version != previous.version
    ]
    return RatingChart(
        line=_points(line),
        band=_points(scaled(upper) + scaled(lower)[::-1]),
        versions=versions,
        low=low,
        high=high,
    )


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    count: int


def places_bars(places: dict[int, int], seats: int, width: int = CHART_WIDTH) -> list[Bar]:
    """One bar per place from 1 to `seats`, as tall as how often the bot finished there."""
    tallest = max(places.values(), default=0) or 1
    slot = width / seats
    bars = []
    for place in range(1, seats + 1):
        count = places.get(place, 0)
        height = count / tallest * (BAR_HEIGHT - 2 * MARGIN)
        bars.append(
            Bar(
                x=(place - 1) * slot + MARGIN,
                y=BAR_HEIGHT - MARGIN - height,
                width=slot - 2 * MARGIN,
                height=height,
                label=_ordinal(place),
                count=count,
            )
        )
    return bars


ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def _ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th... (tables seat at most ten)."""
    return f"{place}{ORDINAL_SUFFIXES.get(place, 'th')}"
