"""The warm pool and kept jails when a start fails: the keeper goes on, and a bot whose
kept jail does not start gets a new jail of its own.

Each start is made to fail by raising, where the real start would, the error
a failing start raises.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

import sandbox.pool
from sandbox.kept import KEPT_VARIABLE, KeptJail, kept_jails
from sandbox.pool import ProcessPool, Recipe, Spare
from sandbox.process_bot import open_file_bot
from tests.sandbox.hostile_match import FAST_LIMITS, wait_for

BOTS = Path(__file__).with_name("bots")
OBSERVATION = {"history": [], "legal_actions": [{"type": "roll"}, {"type": "accuse"}]}


def test_the_keeper_logs_an_unexpected_error_and_refills_the_pool_after_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real_start = sandbox.pool.start_process
    failures = [RuntimeError("an unexpected error starting a spare")]

    def first_start_fails(recipe: Recipe) -> Spare:
        if threading.current_thread().name == "jail-pool" and failures:
            raise failures.pop()
        return real_start(recipe)

    monkeypatch.setattr(sandbox.pool, "start_process", first_start_fails)
    pool = ProcessPool(size=2)
    try:
        with caplog.at_level(logging.ERROR, logger="sandbox.pool"):
            pool.take(None).discard()
            assert wait_for(lambda: not failures, seconds=10)
        assert "the warm pool could not start a process" in caplog.text
        assert "an unexpected error starting a spare" in caplog.text
        pool.take(None).discard()
        assert wait_for(lambda: len(pool.spares()) == 2, seconds=30), "the pool was refilled"
    finally:
        pool.clear()


@pytest.mark.jail
def test_a_bot_whose_kept_jail_does_not_start_plays_in_a_new_jail(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def start_fails(jail: KeptJail) -> None:
        raise OSError("the kept jail's server did not fork a match")

    monkeypatch.setenv(KEPT_VARIABLE, "1")
    monkeypatch.setattr(KeptJail, "start_match", start_fails)
    kept_jails().clear()
    bot = open_file_bot(BOTS / "echo_history.py", limits=FAST_LIMITS)
    try:
        with caplog.at_level(logging.WARNING, logger="sandbox.process_bot"):
            assert bot.start() is None
        assert bot.decide(OBSERVATION, 1.0)["type"] == "seen"
    finally:
        bot.close()
        kept_jails().clear()
    assert "the bot gets a new jail instead" in caplog.text
    assert "fallback" in [getattr(record, "jail_event", None) for record in caplog.records]
