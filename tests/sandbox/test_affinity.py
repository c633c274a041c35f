"""A match's runner thread and its bot processes share one CPU while the bots live."""

from __future__ import annotations

import fcntl
import os
import threading
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


def test_matches_at_once_keep_to_different_cpus_while_there_are_free_ones(tmp_path, monkeypatch):
    monkeypatch.setattr(affinity, "CLAIMS", tmp_path / "claims")
    allowed = os.sched_getaffinity(0)
    cpus: list[int | None] = []
    pinned, done = threading.Barrier(3), threading.Event()

    def match() -> None:
        os.sched_setaffinity(0, {min(allowed)})  # both start on the same CPU
        os.sched_setaffinity(0, allowed)
        cpus.append(affinity.join())
        pinned.wait()
        done.wait()
        affinity.leave()

    threads = [threading.Thread(target=match) for _ in range(2)]
    for thread in threads:
        thread.start()
    pinned.wait()
    try:
        assert None not in cpus and len(set(cpus)) == 2
        # with every CPU held, a third match keeps to the CPU it runs on, unclaimed
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(cpus))
        assert affinity.join() == affinity.current_cpu()
        affinity.leave()
    finally:
        done.set()
        for thread in threads:
            thread.join()
        os.sched_setaffinity(0, allowed)


def test_a_cpu_is_free_again_once_its_match_leaves(tmp_path, monkeypatch):
    monkeypatch.setattr(affinity, "CLAIMS", tmp_path / "claims")
    only = affinity.current_cpu()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {only})
    held: list[int | None] = []

    def match() -> None:
        held.append(affinity.join())
        affinity.leave()

    for _ in range(2):
        thread = threading.Thread(target=match)
        thread.start()
        thread.join()
    monkeypatch.undo()
    assert held == [only, only]
    assert not any(_locked(path) for path in (tmp_path / "claims").iterdir())


def _locked(path: Path) -> bool:
    with path.open("rb") as probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        return False
