"""Matches of a series played side by side in worker processes, their records in order.

A match is a conversation in turns and keeps one CPU busy at most (its
runner and bots hand the turn to each other on one CPU: `sandbox.affinity`),
so a machine with several CPUs plays several matches at once by running
several runners. Each worker process is a fork of this one and plays whole
matches, with a warm pool of jails of its own (`sandbox.pool`); every seed is
settled before the first match (`arena.series.MatchPlan`), so the records
are the same whichever worker plays which match, and they come back in the
order of the plans.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from arena.runner import MatchRecord

if TYPE_CHECKING:
    from arena.series import MatchPlan, SeriesSetup

_setup: SeriesSetup | None = None
"""The series a worker process plays matches of."""


def play_all(setup: SeriesSetup, plans: Sequence[MatchPlan], jobs: int) -> Iterator[MatchRecord]:
    """The record of each planned match, in order, played by up to `jobs` processes."""
    workers = min(jobs, len(plans))
    if workers <= 1:
        yield from (setup.play(plan) for plan in plans)
        return
    # fork: a worker starts in milliseconds, with the modules and the jail probe it needs
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_adopt, initargs=(setup,)
    )
    try:
        yield from executor.map(_play, plans)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _adopt(setup: SeriesSetup) -> None:
    global _setup
    _setup = setup


def _play(plan: MatchPlan) -> MatchRecord:
    assert _setup is not None, "a worker plays only after _adopt"
    return _setup.play(plan)
