"""The jail as a whole: availability, its refusal when missing, one jail per bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox import jail, policy
from sandbox.process_bot import JailUnavailableError, jail_available, open_file_bot
from tests.sandbox.hostile_match import hostile_bot, outcomes

BOTS = Path(__file__).with_name("bots")


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
    assert (first.action["count"], second.action["history"]) == (2, history)
    assert "thinking about 3 events" in log


@pytest.mark.jail
def test_a_jailed_bot_failing_at_import_reports_its_jailed_file_name():
    bot = open_file_bot(BOTS / "crash_at_import.py")
    reason = bot.start()
    log = bot.close()
    assert reason == "the bot file failed to load: ZeroDivisionError: division by zero"
    assert 'File "/bot/crash_at_import.py", line 3' in log


@pytest.mark.jail
def test_each_bot_gets_a_fresh_jail_from_the_warm_pool():
    for _ in range(3):
        bot = hostile_bot("reuse_jail")
        assert bot.start() is None
        assert outcomes(bot.close())["found"] == "[]"
