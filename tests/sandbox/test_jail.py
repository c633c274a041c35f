"""The jail as a whole: availability, its refusal when missing, one jail per bot."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots.handle import Fault
from sandbox import botuser, jail, policy
from sandbox.cgroups import hierarchy, reap_orphans
from sandbox.kept import KEPT_VARIABLE, kept_jails
from sandbox.pool import shared_pool
from sandbox.process_bot import JailUnavailableError, jail_available, open_file_bot
from tests.sandbox.hostile_match import hostile_bot, outcomes, running, wait_for

BOTS = Path(__file__).with_name("bots")
OBSERVATION = {"history": [], "legal_actions": [{"type": "roll"}, {"type": "accuse"}]}
ORPHANING_RUNNER = """
import os, sys
from sandbox import warden
from sandbox.process_bot import open_file_bot
assert open_file_bot(sys.argv[1]).start() is None  # leaves the bot paused
warden.warden.kill()
warden.warden.wait()
print(os.getpid(), flush=True)
os._exit(0)
"""
"""A runner that dies while its bot is paused, after its warden."""
KILLED_RUNNER = """
import os, sys, time
from sandbox.process_bot import open_file_bot
assert open_file_bot(sys.argv[1]).start() is None  # leaves the bot paused
print(os.getpid(), flush=True)
time.sleep(60)
"""
"""A runner that waits, its bot paused, to be killed."""


def jailed_by(runner: int) -> list[int]:
    """The processes in the cgroups of the runner `runner`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            groups = (entry / "cgroup").read_text()
        except OSError:
            continue
        if f"/tavolo-{runner}-" in groups and running(entry.name):
            found.append(int(entry.name))
    return found


def groups_of(runner: int | str, under: str = "/sys/fs/cgroup") -> list[Path]:
    """The cgroups named for the runner `runner`; a folder another runner deletes while
    they are looked for is passed over (where `Path.glob` would raise)."""
    return [
        Path(folder) / name
        for folder, names, _ in os.walk(under)
        for name in names
        if name.startswith(f"tavolo-{runner}-")
    ]


@pytest.fixture
def no_bubblewrap(monkeypatch):
    monkeypatch.setattr(policy, "BWRAP", "/nonexistent/bwrap")
    jail.jail_problem.cache_clear()
    yield
    jail.jail_problem.cache_clear()


def test_without_bubblewrap_a_jailed_bot_is_refused_with_the_reason(no_bubblewrap):
    assert not jail_available()
    with pytest.raises(JailUnavailableError, match="/nonexistent/bwrap is missing"):
        open_file_bot(BOTS / "echo_history.py")


def test_without_bubblewrap_an_unjailed_bot_still_runs(no_bubblewrap):
    bot = open_file_bot(BOTS / "echo_history.py", jail=False)
    assert bot.start() is None
    bot.close()


@pytest.mark.jail
def test_the_jail_is_available_here():
    assert jail_available()


@pytest.mark.jail
def test_a_jailed_bot_plays_and_logs_like_an_unjailed_one():
    bot = open_file_bot(BOTS / "echo_history.py")
    assert bot.start() is None
    history = [{"type": "event", "n": n} for n in range(3)]
    try:
        first = bot.decide({"history": history[:2], "legal_actions": []}, 2.0)
        second = bot.decide({"history": history, "legal_actions": []}, 2.0)
    finally:
        log = bot.close()
    assert (first["count"], second["history"]) == (2, history)
    assert "thinking about 3 events" in log


@pytest.mark.jail
def test_a_jailed_bot_failing_at_import_reports_its_jailed_file_name():
    bot = open_file_bot(BOTS / "crash_at_import.py")
    reason = bot.start()
    log = bot.close()
    assert reason == "the bot file failed to load (ZeroDivisionError); the traceback is in its log"
    assert 'File "/bot/crash_at_import.py", line 3' in log


@pytest.mark.jail
def test_each_bot_gets_a_fresh_jail_from_the_warm_pool():
    for _ in range(3):
        bot = hostile_bot("reuse_jail")
        assert bot.start() is None
        assert outcomes(bot.close())["found"] == "[]"


@pytest.mark.jail
@pytest.mark.skipif(
    getattr(hierarchy(), "version", None) != "v1",
    reason="reads the groups in the v1 freezer hierarchy",
)
def test_a_paused_jail_dies_with_its_runner_and_warden_and_the_next_runner_removes_its_groups():
    runner = subprocess.run(
        [sys.executable, "-c", ORPHANING_RUNNER, str(BOTS / "echo_history.py")],
        env={**os.environ, "TAVOLO_JAIL_POOL_SIZE": "0"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    groups = groups_of(runner.stdout.strip(), "/sys/fs/cgroup/freezer")
    assert groups
    # Stopped, not frozen: a stopped process dies of the SIGKILL bwrap gets when its runner dies.
    assert wait_for(lambda: all(not (group / "cgroup.procs").read_text() for group in groups))
    assert reap_orphans() >= 1
    assert not any(group.exists() for group in groups)


@pytest.mark.skipif(
    getattr(hierarchy(), "version", None) != "v1", reason="the v1 reaper reads three hierarchies"
)
def test_reaping_skips_a_group_another_runner_deleted_while_it_was_listed():
    cgroups_here = hierarchy()
    assert cgroups_here is not None
    group = cgroups_here.create()
    name = next(iter(group.directories())).name
    asked = []

    def doomed(candidate: str) -> bool:
        if candidate != name:
            return False
        asked.append(candidate)
        if len(asked) == 3:  # listed in the memory, pids and freezer hierarchies: now it goes
            group.remove()
        return True

    assert cgroups_here.reap(doomed) == 1
    assert not list(Path("/sys/fs/cgroup").glob(f"*/**/{name}"))


@pytest.mark.jail
@pytest.mark.skipif(hierarchy() is None, reason="no cgroups here: the jail dies with its runner")
def test_a_paused_jail_dies_within_seconds_of_its_runner_killed_with_sigkill():
    runner = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUNNER, str(BOTS / "echo_history.py")],
        env={**os.environ, "TAVOLO_JAIL_POOL_SIZE": "0"},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert runner.stdout is not None
        pid = int(runner.stdout.readline())
        stranded = jailed_by(pid)
        assert stranded  # the paused bot, its bwrap and its reaper
    finally:
        runner.kill()
        runner.wait()
    assert wait_for(lambda: not jailed_by(pid), seconds=5)
    assert wait_for(lambda: not groups_of(pid))


def pids_of_event(caplog, event: str) -> set[int]:
    """The pids named by the sandbox's log records of a jail event ("... pid N")."""
    named = (
        re.search(r"pid (\d+)", record.getMessage())
        for record in caplog.records
        if getattr(record, "jail_event", None) == event
    )
    return {int(found[1]) for found in named if found}


@pytest.mark.jail
def test_every_jail_logs_its_start_and_its_end(caplog):
    kept_jails().clear()
    shared_pool().clear()  # so that the bot's jail starts now
    caplog.set_level(logging.DEBUG, logger="sandbox")
    bot = open_file_bot(BOTS / "echo_history.py")
    assert bot.start() is None
    bot.close()
    # a kept jail outlives its bot's match, and the pool's spares their bot: both end
    # when the process lets them go
    kept_jails().clear()
    shared_pool().clear()
    events = {getattr(record, "jail_event", None) for record in caplog.records}
    assert {"start", "spawn", "end"} <= events
    assert pids_of_event(caplog, "spawn")
    assert pids_of_event(caplog, "spawn") <= pids_of_event(caplog, "end")


@pytest.mark.jail
@pytest.mark.skipif(
    hierarchy() is None or "pids" not in hierarchy().limits,
    reason="no task count here: every bot is frozen",
)
def test_a_bot_stopped_as_one_process_that_is_more_when_its_turn_comes_is_crashed():
    bot = open_file_bot(BOTS / "echo_history.py")
    assert bot.start() is None  # paused: one process, stopped
    stray = subprocess.Popen(["sleep", "30"])
    try:
        bot._process.cgroup.adopt([stray.pid])  # as a fork finished past the stop would be
        answer = bot.decide({"history": [], "legal_actions": []}, 2.0)
    finally:
        bot.close()
        stray.kill()
        stray.wait()
    assert answer == Fault("the bot started a process as it was being paused", crash=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="a runner that is not root starts jails as itself")
@pytest.mark.parametrize("setpriv", [True, False], ids=["setpriv", "popen-options"])
def test_a_root_runner_starts_jails_as_the_bot_account_without_groups_or_capabilities(
    setpriv, monkeypatch
):
    if not setpriv:
        monkeypatch.setattr(botuser, "SETPRIV", "/nonexistent/setpriv")
    account = botuser.jail_account()
    switch, options = botuser.start_as(account)
    assert bool(switch) == setpriv
    command = [*switch, policy.PYTHON, "-c", "print(open('/proc/self/status').read())"]
    status = subprocess.run(command, capture_output=True, text=True, check=True, **options).stdout
    fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
    assert fields["Uid"].split() == [str(account.uid)] * 4
    assert fields["Gid"].split() == [str(account.gid)] * 4
    assert fields["Groups"].strip() == ""
    assert {fields[name] for name in ("CapInh", "CapPrm", "CapEff", "CapAmb")} == {"0" * 16}


@pytest.mark.jail
def test_with_kept_jails_off_every_bot_gets_a_new_jail(monkeypatch, caplog):
    monkeypatch.setenv(KEPT_VARIABLE, "0")
    kept_jails().clear()
    caplog.set_level(logging.DEBUG, logger="sandbox")
    for _ in range(2):
        bot = open_file_bot(BOTS / "echo_history.py")
        assert bot.start() is None
        assert bot.decide(OBSERVATION, 2.0)["type"] == "seen"
        bot.close()
    assert not kept_jails().idle()
    ended = [record.getMessage() for record in caplog.records if record.name == "sandbox.jail"]
    assert sum(message.startswith("jail killed: pid") for message in ended) == 2
