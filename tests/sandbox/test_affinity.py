"""A match's runner thread and its bot processes share one CPU while the bots live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import affinity
from sandbox.process_bot import open_file_bot
from sandbox.tree import descendants

ECHO = Path(__file__).with_name("bots") / "echo_history.py"
OBSERVATION = {"history": [], "legal_actions": [{"type": "roll"}, {"type": "accuse"}]}

pytestmark = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="sharing a CPU means nothing on one CPU"
)


def bot_hosts() -> list[int]:
    """This process's children running the bot host."""
    hosts = []
    for pid in descendants(os.getpid()):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:-1]
        except OSError:
            continue  # gone meanwhile
        if argv and argv[-1].endswith(b"host.py") and not argv[0].endswith(b"bwrap"):
            hosts.append(pid)
    return hosts


def allowed_cpus(pid: int) -> str:
    """The CPUs `pid` may run on, as /proc lists them ("" if it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return ""
    for line in status.splitlines():
        if line.startswith("Cpus_allowed_list:"):
            return line.split(":")[1].strip()
    raise AssertionError("no Cpus_allowed_list")


@pytest.mark.parametrize("jail", [False, pytest.param(True, marks=pytest.mark.jail)])
def test_the_runner_thread_and_its_bots_keep_to_one_cpu_until_the_last_bot_closes(jail):
    before = os.sched_getaffinity(0)
    first, second = (open_file_bot(ECHO, jail=jail) for _ in range(2))
    assert first.start() is None and second.start() is None
    try:
        assert first.decide(OBSERVATION, 2.0)["type"] == "seen"
        pinned = os.sched_getaffinity(0)
        assert len(pinned) == 1
        (cpu,) = pinned
        on_our_cpu = [pid for pid in bot_hosts() if allowed_cpus(pid) == str(cpu)]
        assert len(on_our_cpu) == 2  # the jail pool's spares run anywhere
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
