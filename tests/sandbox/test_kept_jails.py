"""Kept jails and the unjailed bot server: one process forks each bot's matches, and nothing
passes from one match to the next."""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
from pathlib import Path

import pytest

from arena.bots.handle import Fault
from sandbox.cgroups import cgroup_limits
from sandbox.kept import KEPT_VARIABLE, kept_jails
from sandbox.limits import MIB
from sandbox.process_bot import open_file_bot
from tests.sandbox.hostile_match import (
    FAST_LIMITS,
    HOSTILE,
    outcomes,
    play,
    thinking_while_paused_and_running,
    wait_for,
)

pytestmark = pytest.mark.jail

BOTS = Path(__file__).with_name("bots")
OBSERVATION = {"history": [], "legal_actions": [{"type": "roll"}, {"type": "accuse"}]}
TRACES_MARKER = b"tavolo-hostile-traces"


@pytest.fixture(autouse=True)
def kept(monkeypatch):
    monkeypatch.setenv(KEPT_VARIABLE, "1")
    kept_jails().clear()
    yield
    kept_jails().clear()


def traces_alive() -> list[int]:
    """Processes on the host started by `leave_traces`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if TRACES_MARKER in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            pass
    return found


def play_once(path: Path, observation: dict | None = None, limits=FAST_LIMITS):
    """Start the bot, let it answer one observation, close it: its answer and its log."""
    bot = open_file_bot(path, limits=limits)
    assert bot.start() is None
    answer = bot.decide(observation or OBSERVATION, 1.0)
    return answer, bot.close()


def spawned(caplog) -> int:
    """How many kept jails were started."""
    return sum(
        record.name == "sandbox.kept" and getattr(record, "jail_event", None) == "spawn"
        for record in caplog.records
    )


def test_the_next_match_of_the_same_bot_is_played_in_the_same_jail(caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    for _ in range(3):
        answer, _ = play_once(BOTS / "echo_history.py")
        assert answer["type"] == "seen"
    assert spawned(caplog) == 1


def test_another_bot_gets_a_jail_of_its_own(caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    play_once(BOTS / "echo_history.py")
    play_once(BOTS / "moody.py")
    assert spawned(caplog) == 2


def test_nothing_a_bot_leaves_in_its_jail_reaches_its_next_match(caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    logs = [play_once(HOSTILE / "leave_traces.py")[1] for _ in range(3)]
    assert spawned(caplog) == 1
    first = outcomes(logs[0])
    assert first == {
        "pid": "2",
        "tmp": "[]",
        "shm": "[]",
        "tmp mode": "0o40755",
        "tmp old": "False",
        "tmp xattrs": "[]",
        "sysv shm": "False",
        "mqueue": "False",
        "visits": "0",
    }
    for later in logs[1:]:
        assert outcomes(later) == first
    assert wait_for(lambda: not traces_alive())


@pytest.mark.parametrize(
    "mood, fault",
    [
        ("crash", "the bot process exited with code 7"),
        ("hang", "late: no reply within 1 s"),
        ("spin", "late: no reply within 1 s"),
        pytest.param(
            "hog",
            "killed by SIGKILL (memory limit reached)",
            marks=pytest.mark.skipif(
                "memory" not in cgroup_limits(), reason="needs a memory cgroup"
            ),
        ),
    ],
)
def test_a_bot_that_crashed_hung_or_was_killed_leaves_its_jail_fit_for_its_next_match(
    mood, fault, caplog
):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    limits = dataclasses.replace(FAST_LIMITS, address_space_bytes=4096 * MIB, memory_bytes=64 * MIB)
    answer, _ = play_once(BOTS / "moody.py", {**OBSERVATION, "mood": mood}, limits)
    assert isinstance(answer, Fault) and answer.reason.endswith(fault)
    for _ in range(2):
        answer, _ = play_once(BOTS / "moody.py", OBSERVATION, limits)
        assert answer == {"type": "roll"}
    assert spawned(caplog) == 1


def test_a_bot_whose_jail_died_gets_a_new_one(caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    play_once(BOTS / "echo_history.py")
    for jail in kept_jails().idle():
        os.kill(jail.popen.pid, signal.SIGKILL)
        jail.popen.wait()
    answer, _ = play_once(BOTS / "echo_history.py")
    assert answer["type"] == "seen"
    assert spawned(caplog) == 2


@pytest.mark.parametrize("jail", [True, False], ids=["jailed", "unjailed"])
def test_each_match_starts_from_a_fresh_interpreter(jail):
    for _ in range(3):
        bot = open_file_bot(BOTS / "counter.py", jail=jail)
        assert bot.start() is None
        assert bot.decide(OBSERVATION, 2.0) == {"type": "counted", "decisions": 1}
        assert bot.decide(OBSERVATION, 2.0) == {"type": "counted", "decisions": 2}
        bot.close()


def test_unjailed_bots_are_forked_by_one_server_and_end_as_a_started_host_ends(caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    for _ in range(2):
        bot = open_file_bot(BOTS / "exit_in_act.py", jail=False)
        assert bot.start() is None
        answer = bot.decide(OBSERVATION, 2.0)
        assert isinstance(answer, Fault) and answer.crash
        assert answer.reason == "the bot process exited with code 7"
        bot.close()
    assert spawned(caplog) == 1


def test_an_unjailed_bot_from_the_server_is_paused_between_its_turns():
    bot = open_file_bot(HOSTILE / "think_between_turns.py", jail=False)
    paused, running = thinking_while_paused_and_running(bot)
    assert running > 1000
    assert paused < running / 5


def status_of(pid: int) -> dict[str, str]:
    """The fields of /proc/<pid>/status that say what a process may do."""
    fields = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp_filters")
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    found = dict(line.split(":\t", 1) for line in lines if ":\t" in line)
    return {field: found[field].strip() for field in fields}


def runs_host(pid: int) -> bool:
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    return not argv[0].endswith(b"bwrap") and b"/host/host.py" in argv


def test_the_server_holds_two_capabilities_and_the_match_none():
    play_once(BOTS / "echo_history.py")
    (jail,) = kept_jails().idle()
    (server,) = [pid for pid in jail.server_group.processes() if runs_host(pid)]
    bot = open_file_bot(BOTS / "echo_history.py", limits=FAST_LIMITS)
    assert bot.start() is None
    try:
        (group,) = jail.cgroup.children()[-1:]
        match = [status_of(pid) for pid in group.processes()]
        server_status = status_of(server)
    finally:
        bot.close()
    sys_admin_and_setpcap = f"{(1 << 21) | (1 << 8):016x}"
    assert server_status == {
        "CapInh": "0" * 16,
        "CapPrm": sys_admin_and_setpcap,
        "CapEff": sys_admin_and_setpcap,
        "CapBnd": sys_admin_and_setpcap,
        "CapAmb": "0" * 16,
        "NoNewPrivs": "1",
        "Seccomp_filters": "1",
    }
    powerless = {field: "0" * 16 for field in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")}
    assert len(match) == 2  # the init and the host, each under the server's filter and the bot's
    assert match == [{**powerless, "NoNewPrivs": "1", "Seccomp_filters": "2"}] * 2


def test_a_bot_signalling_its_process_group_does_not_reach_its_server(caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    for _ in range(2):
        record = play("own_powers")
        assert outcomes(record.seats[0].log)["SIGTERM to its process group"] == "sent"
    assert spawned(caplog) == 1
    assert all(jail.alive() for jail in kept_jails().idle())
