"""Durations are written as people write them."""

from __future__ import annotations

import pytest

from arena.units import seconds_text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (1.0, "1 s"),
        (2.99805, "3 s"),
        (0.25, "0.25 s"),
        (0.1234, "0.12 s"),
        (11.0, "11 s"),
        (59.6, "60 s"),
    ],
)
def test_seconds_are_written_to_two_digits_and_whole_from_ten(seconds: float, text: str) -> None:
    assert seconds_text(seconds) == text
