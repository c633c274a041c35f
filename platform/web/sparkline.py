"""A rating history drawn as an inline SVG line: no JavaScript, no chart library."""

from __future__ import annotations

from collections.abc import Sequence

WIDTH = 600
HEIGHT = 80
MARGIN = 4


def sparkline_points(values: Sequence[float]) -> str:
    """The ``points`` of an SVG polyline through `values`, scaled to fill WIDTH x HEIGHT."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    spread = (high - low) or 1.0
    step = (WIDTH - 2 * MARGIN) / (len(values) - 1)
    return " ".join(
        f"{MARGIN + index * step:.1f},"
        f"{HEIGHT - MARGIN - (value - low) / spread * (HEIGHT - 2 * MARGIN):.1f}"
        for index, value in enumerate(values)
    )
