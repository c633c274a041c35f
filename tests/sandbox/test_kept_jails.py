"""Kept jails and the unjailed bot server: one process forks each bot's matches, and nothing
passes from one match to the next."""

from __future__ import annotations

import dataclasses
import logging
import os
import resource
import signal
from pathlib import Path

import pytest

from arena.bots.handle import Fault
from sandbox.cgroups import cgroup_limits
from sandbox.kept import KEPT_VARIABLE, KeptJail, ProcessKind, kept_jails
from sandbox.limits import MIB
from sandbox.pool import shared_pool
from sandbox.process_bot import open_file_bot
from sandbox.unjailed import unjailed_server
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
    unjailed_server().clear()
    yield
    kept_jails().clear()
    unjailed_server().clear()


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


def servers_started(caplog) -> int:
    """How many unjailed bot servers were started."""
    return sum(record.getMessage().startswith("bot server started") for record in caplog.records)


def kept_pids() -> list[int]:
    """The kept jails waiting for their bot's next match, by their bwrap's pid."""
    return [jail.popen.pid for jail in kept_jails().idle()]


def test_the_next_match_of_the_same_bot_is_played_in_the_same_jail():
    jails = []
    for _ in range(3):
        answer, _ = play_once(BOTS / "echo_history.py")
        assert answer["type"] == "seen"
        jails.append(kept_pids())
    assert len(jails[0]) == 1 and jails == [jails[0]] * 3


def test_another_bot_gets_a_jail_of_its_own():
    play_once(BOTS / "echo_history.py")
    play_once(BOTS / "moody.py")
    assert len(set(kept_pids())) == 2


def blank_pids() -> set[int]:
    """The blank kept jails the warm pool started ahead, by their bwrap's pid."""
    return {spare.popen.pid for spare in shared_pool().spares() if isinstance(spare, KeptJail)}


@pytest.mark.skipif(shared_pool().size == 0, reason="the warm pool is off")
def test_a_new_bot_gets_a_jail_started_ahead_that_served_no_bot_before():
    play_once(BOTS / "echo_history.py")  # the pool starts blank kept jails ahead
    assert wait_for(blank_pids, seconds=10)
    ahead = blank_pids()
    (echo,) = kept_pids()
    assert echo not in ahead
    play_once(BOTS / "moody.py")
    (moody,) = set(kept_pids()) - {echo}
    assert moody in ahead
    play_once(BOTS / "echo_history.py")
    assert sorted(kept_pids()) == sorted([echo, moody])


def test_nothing_a_bot_leaves_in_its_jail_reaches_its_next_match():
    logs = []
    for _ in range(3):
        logs.append(play_once(HOSTILE / "leave_traces.py")[1])
        assert len(kept_pids()) == 1
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
def test_a_bot_that_crashed_hung_or_was_killed_leaves_its_jail_fit_for_its_next_match(mood, fault):
    limits = dataclasses.replace(FAST_LIMITS, address_space_bytes=4096 * MIB, memory_bytes=64 * MIB)
    answer, _ = play_once(BOTS / "moody.py", {**OBSERVATION, "mood": mood}, limits)
    assert isinstance(answer, Fault) and answer.reason.endswith(fault)
    (first,) = kept_pids()
    for _ in range(2):
        answer, _ = play_once(BOTS / "moody.py", OBSERVATION, limits)
        assert answer == {"type": "roll"}
        assert kept_pids() == [first]


def test_a_bot_whose_jail_died_gets_a_new_one():
    play_once(BOTS / "echo_history.py")
    (dead,) = kept_pids()
    os.kill(dead, signal.SIGKILL)
    kept_jails().idle()[0].popen.wait()
    answer, _ = play_once(BOTS / "echo_history.py")
    assert answer["type"] == "seen"
    (new,) = kept_pids()
    assert new != dead


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
    assert servers_started(caplog) == 1


def test_an_unjailed_bot_from_the_server_is_paused_between_its_turns():
    bot = open_file_bot(HOSTILE / "think_between_turns.py", jail=False)
    paused, running = thinking_while_paused_and_running(bot)
    assert running > 1000
    assert paused < running / 5


def state_of(pid: int) -> str:
    """The one-letter state in /proc/<pid>/stat: S sleeping, T stopped, R running."""
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]


def wake_ups(pid: int) -> int:
    """How often the process has slept and been woken (voluntary context switches)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            return int(line.split()[1])
    raise LookupError(pid)


def test_pausing_an_unjailed_bot_stops_its_host_and_leaves_the_waiting_leader_asleep():
    bot = open_file_bot(BOTS / "echo_history.py", jail=False)
    assert bot.start() is None  # a started bot is left paused
    try:
        leader = bot._process.pid  # the session's leader, which waits for the host
        (host,) = map(int, Path(f"/proc/{leader}/task/{leader}/children").read_text().split())
        woken = wake_ups(leader)
        for _ in range(20):
            assert wait_for(lambda: state_of(host) == "T", seconds=2)  # a stop is not waited for
            assert state_of(leader) == "S"
            assert bot.decide(OBSERVATION, 2.0) is not None
        assert wake_ups(leader) == woken  # stopping and resuming its child never wake it
    finally:
        bot.close()


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
    # the init under the server's filter and the bot's; the host also under its own, which
    # keeps it on its CPU
    assert len(match) == 2
    assert match == [
        {**powerless, "NoNewPrivs": "1", "Seccomp_filters": filters} for filters in ("2", "3")
    ]


def test_a_bot_signalling_its_process_group_does_not_reach_its_server():
    jails = []
    for _ in range(2):
        record = play("own_powers")
        assert outcomes(record.seats[0].log)["SIGTERM to its process group"] == "sent"
        jails.append(kept_pids())
    assert len(jails[0]) == 1 and jails[1] == jails[0]
    assert all(jail.alive() for jail in kept_jails().idle())


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_closing_kept_jails_leaves_no_descriptor_open():
    """A worker closes thousands of kept jails in its life; each must give back its files."""

    def settled() -> int:
        kept_jails().clear()
        shared_pool().clear()  # spares the pool is starting hold files of their own
        return open_descriptors()

    play_once(BOTS / "echo_history.py")
    before = settled()
    for _ in range(5):
        play_once(BOTS / "echo_history.py")
        kept_jails().clear()
    # a leak of one jail's files is six descriptors; five jails would leak thirty
    assert settled() - before < 6


def test_a_runner_holding_over_a_thousand_descriptors_still_starts_bots():
    """select(2) fails on descriptors numbered 1024 or more; a long-lived runner gets there."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 2048), max(hard, 2048)))
    filler = []
    try:
        while open_descriptors() < 1100:
            filler.append(os.open(os.devnull, os.O_RDONLY))
        answer, _ = play_once(BOTS / "echo_history.py")
        assert answer["type"] == "seen"
    finally:
        for fd in filler:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_process_kind_passed_in_is_the_one_used_whatever_the_environment(caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox")
    bot = open_file_bot(BOTS / "exit_in_act.py", jail=False, process=ProcessKind.UNJAILED_HOST)
    assert bot.start() is None
    bot.close()
    assert servers_started(caplog) == 0, "a new host, although kept jails are asked for"
    bot = open_file_bot(BOTS / "exit_in_act.py", jail=False)
    assert bot.start() is None
    bot.close()
    assert servers_started(caplog) == 1, "the environment's choice, read when it is opened"


def test_a_jailed_kind_is_refused_for_an_unjailed_bot():
    with pytest.raises(ValueError, match="not jailed cannot use a kept jail"):
        open_file_bot(BOTS / "exit_in_act.py", jail=False, process=ProcessKind.KEPT_JAIL)


def jail_events(caplog) -> list[str]:
    return [record.jail_event for record in caplog.records if hasattr(record, "jail_event")]


def test_an_operator_reads_each_jail_decision_in_the_log(caplog):
    """Start, reuse and kill each leave a line with its event (counted by the platform)."""
    caplog.set_level(logging.DEBUG, logger="sandbox")
    play_once(BOTS / "echo_history.py")
    play_once(BOTS / "echo_history.py")
    events = jail_events(caplog)
    assert events.count("start") == 2
    assert events.count("reuse") == 1, "the second match is served by the first's jail"
    assert events.count("end") == 2, "each match is killed in its jail"
    assert "bot echo_history: its jail started (kept jail)" in caplog.text
