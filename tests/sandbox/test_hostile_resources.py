"""Hostile bots exhausting resources or time: limits hold, the match goes on, nothing survives."""

from __future__ import annotations

import dataclasses
import os
import time

import pytest

from arena.bots.handle import Fault
from arena.runner import TimeControl
from sandbox.cgroups import cgroup_limits
from sandbox.limits import GIB, MIB
from tests.sandbox.hostile_match import (
    FAST_LIMITS,
    assert_contained,
    assert_others_unaffected,
    hostile_bot,
    outcomes,
    play,
    thinking_while_paused_and_running,
    wait_for,
)

pytestmark = [pytest.mark.jail, pytest.mark.usefixtures("both_jail_kinds")]

OBSERVATION = {"history": [], "legal_actions": [{"type": "roll"}, {"type": "accuse"}]}
DAEMON_MARKER = b"tavolo-hostile-daemon"


def daemons() -> list[int]:
    """Processes on the host whose command line carries the daemon bot's marker."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as command:
                    if DAEMON_MARKER in command.read():
                        found.append(int(name))
            except OSError:
                pass
    return found


@pytest.mark.parametrize("bot, label", [("fork_bomb", "fork"), ("thread_bomb", "threads")])
def test_a_bomb_of_processes_or_threads_stops_at_the_process_limit(bot, label):
    record = play(bot)
    kind, _, count = outcomes(record.seats[0].log)[label].partition(" after ")
    assert kind in {"BlockingIOError", "RuntimeError"}
    assert 0 < int(count) < FAST_LIMITS.processes
    assert_contained(record)


def test_a_memory_bomb_meets_its_address_space_limit_and_crashes():
    limits = dataclasses.replace(FAST_LIMITS, address_space_bytes=128 * MIB)
    record = play("memory_bomb", limits=limits, opponents=2)
    hostile = record.seats[0]
    assert hostile.crashed
    assert hostile.crash_reason == "the bot ran out of memory (MemoryError)"
    assert "MemoryError" in hostile.log
    assert_others_unaffected(record)


@pytest.mark.skipif("memory" not in cgroup_limits(), reason="needs a memory cgroup")
def test_a_memory_bomb_past_its_cgroup_limit_is_killed():
    limits = dataclasses.replace(FAST_LIMITS, address_space_bytes=4 * GIB, memory_bytes=64 * MIB)
    record = play("memory_touch_bomb", limits=limits, opponents=2)
    hostile = record.seats[0]
    assert hostile.crashed
    assert hostile.crash_reason.endswith("killed by SIGKILL (memory limit reached)")
    assert_others_unaffected(record)


def test_a_cpu_spin_is_late_then_killed_at_its_cpu_limit():
    limits = dataclasses.replace(FAST_LIMITS, cpu_seconds=1)
    # Enough lives for the spin to reach its CPU second even when a busy machine
    # gives it a small share of a core during each late decision.
    record = play("cpu_spin", limits=limits, clock=TimeControl(0.6, 0.0), opponents=2, lives=30)
    hostile = record.seats[0]
    assert hostile.infractions >= 1
    assert all(infraction.kind == "late" for infraction in hostile.infraction_reasons)
    assert hostile.crashed
    assert hostile.crash_reason.endswith("killed by SIGKILL")
    assert_others_unaffected(record)


def test_a_bot_sleeping_past_its_deadline_is_late_and_its_late_reply_is_dropped():
    bot = hostile_bot("sleep_past_deadline")
    assert bot.start() is None
    observation = {**OBSERVATION, "time": {"decision_seconds": 0.2}}
    try:
        late = bot.decide(observation, 0.2)
        on_time = bot.decide(observation, 2.0)
    finally:
        bot.close()
    assert late == Fault("late: no reply within 0.2 s")
    assert on_time == {"type": "roll"}  # the answer to this turn, not the late one's


def test_a_bot_sleeping_past_its_deadline_does_not_stop_the_match():
    record = play("sleep_past_deadline", clock=TimeControl(0.2, 0.2), opponents=2)
    hostile = record.seats[0]
    assert not hostile.crashed
    assert hostile.infraction_reasons[0].reason == "late: no reply within 0.4 s"
    assert_others_unaffected(record)


def test_a_paused_bot_cannot_think_between_its_turns():
    paused, running = thinking_while_paused_and_running(hostile_bot("think_between_turns"))
    assert running > 1000
    assert paused < running / 5


def test_a_daemonised_grandchild_dies_with_its_bot():
    bot = hostile_bot("daemon_grandchild")
    assert bot.start() is None
    assert bot.decide(OBSERVATION, 2.0) == {"type": "roll"}
    assert wait_for(lambda: len(daemons()) == 1)
    log = bot.close()
    assert outcomes(log)["daemon"] == "started"
    assert wait_for(lambda: not daemons())


def test_a_daemonised_grandchild_is_gone_after_its_match():
    record = play("daemon_grandchild")
    assert outcomes(record.seats[0].log)["daemon"] == "started"
    assert wait_for(lambda: not daemons())
    assert_contained(record)


@pytest.mark.parametrize(
    "ways",
    [("main",), ("thread", "child", "main")],
    ids=["one task, stopped", "threads and processes, frozen"],
)
def test_a_pondering_bot_gets_no_cpu_time_while_paused(ways):
    bot = hostile_bot("ponder")
    observation = {**OBSERVATION, "ways": ways}
    assert bot.start() is None
    try:
        first = bot.decide(observation, 2.0)  # starts thinking as it replies
        time.sleep(1.0)  # paused: decide pauses it again on the way out
        second = bot.decide(observation, 2.0)
        bot.resume()
        time.sleep(1.0)
        third = bot.decide(observation, 2.0)
    finally:
        bot.close()
    paused = {way: second[way] - first[way] for way in ways}
    running = {way: third[way] - second[way] for way in ways}
    assert all(seconds > 0.01 for seconds in running.values()), running  # each way thinks
    assert sum(paused.values()) < 0.05, paused
    assert sum(paused.values()) < sum(running.values()) / 5, (paused, running)
