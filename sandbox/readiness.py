"""Waiting for a descriptor to be readable, by poll(2).

select(2) refuses descriptors numbered 1024 or more, which a long-lived worker or test
process reaches; poll has no such ceiling.
"""

from __future__ import annotations

import math
import select
from typing import Protocol


class HasFileno(Protocol):
    def fileno(self) -> int: ...


def readable(source: int | HasFileno, seconds: float) -> bool:
    """True once `source` is readable (or hung up) within `seconds`; False on timeout."""
    poller = select.poll()
    poller.register(source, select.POLLIN)
    timeout_ms = max(0, math.ceil(seconds * 1000))
    return bool(poller.poll(timeout_ms))
