"""A match's runner thread and its bot processes share one CPU while the bots live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import affinity
from sandbox.process_bot import open_file_bot

REPORT_CPUS = Path(__file__).with_name("bots") / "report_cpus.py"
OBSERVATION = {"history": [], "legal_actions": [{"type": "roll"}, {"type": "accuse"}]}

pytestmark = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="sharing a CPU means nothing on one CPU"
)


@pytest.mark.parametrize("jail", [False, pytest.param(True, marks=pytest.mark.jail)])
def test_the_runner_thread_and_its_bots_keep_to_one_cpu_until_the_last_bot_closes(jail):
    before = os.sched_getaffinity(0)
    first, second = (open_file_bot(REPORT_CPUS, jail=jail) for _ in range(2))
    assert first.start() is None and second.start() is None
    try:
        pinned = os.sched_getaffinity(0)
        assert len(pinned) == 1
        # each bot's own process, whatever runs around it (a jail's reaper, a kept
        # jail's server and match init, the pool's spares)
        for bot in (first, second):
            assert bot.decide(OBSERVATION, 2.0) == {"type": "cpus", "cpus": sorted(pinned)}
        first.close()
        assert os.sched_getaffinity(0) == pinned  # the second bot still plays
    finally:
        first.close()
        second.close()
    assert os.sched_getaffinity(0) == before


def test_leaving_more_often_than_joining_changes_nothing():
    before = os.sched_getaffinity(0)
    affinity.leave()
    assert os.sched_getaffinity(0) == before
    assert affinity.join() == affinity.current_cpu()
    affinity.leave()
    assert os.sched_getaffinity(0) == before
