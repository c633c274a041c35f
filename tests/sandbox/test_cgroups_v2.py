"""The cgroup v2 backend, for real, under a test group beside this process's own.

On a hybrid machine the v2 hierarchy has no memory or pids controller (they
are bound to v1), but freezing, killing, moving and removal are core v2 and
are exercised here; the limits must then degrade to rlimits, said once.
"""

from __future__ import annotations

import json
import logging
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import cgroups
from sandbox.cgroups.base import LIMITS
from sandbox.cgroups.v2 import ROOT_VARIABLE, V2Hierarchy, mount_point, own_group
from tests.sandbox.hostile_match import running, wait_for

pytestmark = pytest.mark.cgroup2

REPOSITORY = Path(__file__).parents[2]
COUNTER = "import sys, time\nwhile True:\n    print(1, flush=True)\n    time.sleep(0.001)\n"
DYING_RUNNER = """
import os, subprocess, sys
from pathlib import Path
from sandbox.cgroups.v2 import V2Hierarchy
group = V2Hierarchy(Path(sys.argv[1])).create()
quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
sleeper = subprocess.Popen(["sleep", "600"], start_new_session=True, **quiet)
group.adopt([sleeper.pid])
group.freeze()
print(sleeper.pid, group.path, flush=True)
os._exit(0)
"""
"""A runner that dies leaving a frozen bot group behind."""
JAILED_RUNNER = """
import json
from sandbox.cgroups import hierarchy
from tests.sandbox.hostile_match import hostile_bot, thinking_while_paused_and_running
paused, running = thinking_while_paused_and_running(hostile_bot("think_between_turns"))
print(json.dumps({"version": hierarchy().version, "paused": paused, "running": running}))
"""
"""A jailed bot that counts between its turns, measured paused and running."""


@pytest.fixture
def parent() -> Iterator[Path]:
    """An empty v2 group under this process's own, removed with whatever is left in it."""
    path = own_group(mount_point()) / f"tavolo-test-{os.getpid()}"
    path.mkdir()
    yield path
    for child in path.iterdir():
        if child.is_dir():
            (child / "cgroup.kill").write_text("1")
            wait_for(lambda child=child: not (child / "cgroup.procs").read_text())
            child.rmdir()
    path.rmdir()


@pytest.fixture
def counter() -> Iterator[subprocess.Popen]:
    """A process printing a line every millisecond."""
    process = subprocess.Popen([sys.executable, "-c", COUNTER], stdout=subprocess.PIPE)
    os.set_blocking(process.stdout.fileno(), False)
    yield process
    process.kill()
    process.wait()


def printed_within(process: subprocess.Popen, seconds: float) -> bool:
    """True if the process prints something within `seconds` (after what it printed before)."""
    stdout = process.stdout.fileno()
    while select.select([stdout], [], [], 0)[0] and os.read(stdout, 65536):
        pass
    return bool(select.select([stdout], [], [], seconds)[0])


def test_a_frozen_group_stops_a_counting_process_until_thawed(parent, counter):
    group = V2Hierarchy(parent).create()
    group.adopt([counter.pid])
    assert printed_within(counter, 2.0)
    group.freeze()
    assert "frozen 1" in (group.path / "cgroup.events").read_text()
    assert not printed_within(counter, 0.3)
    group.thaw()
    assert printed_within(counter, 2.0)
    counter.kill()
    counter.wait()
    group.remove()
    assert not group.path.exists()


@pytest.mark.parametrize("how", ["kill", "kill_each"])
def test_killing_a_group_leaves_none_of_its_processes(parent, how):
    group = V2Hierarchy(parent).create()
    shell = subprocess.Popen(
        ["sh", "-c", "read go; sleep 600 & sleep 600 & wait"], stdin=subprocess.PIPE
    )
    group.adopt([shell.pid])
    shell.stdin.write(b"go\n")  # the sleepers are forked inside the group
    shell.stdin.close()
    assert wait_for(lambda: len(group.processes()) == 3)
    members = group.processes()
    getattr(group, how)()
    shell.wait()
    assert wait_for(lambda: not group.processes())
    assert wait_for(lambda: not any(running(pid) for pid in members))
    group.remove()
    assert not group.path.exists()


def test_removing_a_group_kills_what_is_left_in_it(parent, counter):
    group = V2Hierarchy(parent).create()
    group.adopt([counter.pid])
    group.freeze()
    group.remove()
    assert counter.wait(5) == -9
    assert not group.path.exists()


def test_only_the_groups_of_a_dead_runner_are_reaped(parent):
    cgroups_here = V2Hierarchy(parent)
    ours = cgroups_here.create()
    runner = subprocess.run(
        [sys.executable, "-c", DYING_RUNNER, str(parent)],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    sleeper, left = runner.stdout.split()
    assert running(int(sleeper))  # frozen, and not the dead runner's child any more
    assert cgroups_here.reap_orphans() == 1
    assert not Path(left).exists()
    assert wait_for(lambda: not running(int(sleeper)))
    assert ours.path.exists()
    ours.remove()


def test_limits_are_written_where_the_controllers_are_offered(parent):
    offered = (parent / "cgroup.controllers").read_text().split()
    cgroups_here = V2Hierarchy(parent)
    assert cgroups_here.limits == tuple(name for name in LIMITS if name in offered)
    group = cgroups_here.create()
    group.limit(memory_bytes=64 << 20, processes=9)  # a missing controller is no error
    if "pids" in cgroups_here.limits:
        assert (group.path / "pids.max").read_text().strip() == "9"
    if "memory" in cgroups_here.limits:
        assert (group.path / "memory.max").read_text().strip() == str(64 << 20)
    assert not group.out_of_memory()
    group.remove()


def test_a_missing_controller_is_reported_once_at_start_up(parent, monkeypatch, caplog):
    monkeypatch.setenv(ROOT_VARIABLE, str(parent))
    cgroups._hierarchy.cache_clear()
    caplog.set_level(logging.INFO, logger="sandbox.cgroups")
    try:
        chosen = cgroups.hierarchy()
        cgroups.hierarchy()
    finally:
        cgroups._hierarchy.cache_clear()
    assert chosen is not None and chosen.version == "v2"
    assert len(caplog.records) == 1
    line = caplog.records[0].getMessage()
    assert line.startswith(f"bot jails use cgroup v2 at {parent}")
    missing = [name for name in LIMITS if name not in chosen.limits]
    assert ("rlimits alone" in line) == bool(missing)
    assert all(f"no {name}" in line or f"or {name}" in line for name in missing)


@pytest.mark.jail
def test_a_jailed_bot_in_a_v2_group_cannot_think_while_paused(parent):
    runner = subprocess.run(
        [sys.executable, "-c", JAILED_RUNNER],
        cwd=REPOSITORY,
        env={**os.environ, ROOT_VARIABLE: str(parent), "TAVOLO_JAIL_POOL_SIZE": "0"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    counts = json.loads(runner.stdout)
    assert counts["version"] == "v2"
    assert counts["running"] > 1000
    assert counts["paused"] < counts["running"] / 5
    assert not [child for child in parent.iterdir() if child.is_dir()]
