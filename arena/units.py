"""Numbers as people write them, for reasons and command output."""

from __future__ import annotations


def seconds_text(seconds: float) -> str:
    """A duration to two significant digits, whole seconds from ten on: ``3 s``, ``0.25 s``."""
    if seconds >= 10:
        return f"{round(seconds)} s"
    return f"{seconds:.2g} s"
