"""The standalone's supervisor: a child that ends is started again, with a growing pause."""

from __future__ import annotations

import logging
import os
import signal
import time
from pathlib import Path

import pytest

from tavolo_site.supervisor import Child, Supervisor

WAIT_SECONDS = 10.0


def supervisor(*children: Child, tmp_path: Path, **pauses: float) -> Supervisor:
    return Supervisor(list(children), cwd=tmp_path, env=dict(os.environ), **pauses)


def checked_until(supervisor: Supervisor, done: object, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not in time"
        supervisor.check()
        time.sleep(0.01)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"


def test_a_killed_child_is_started_again_and_what_it_started_is_killed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The child starts a process of its own, as gunicorn and Celery start their pools.
    command = ["sh", "-c", f"sleep 600 & echo $! > {tmp_path}/pool; exec sleep 600"]
    child = Child("worker", command)
    running = supervisor(child, tmp_path=tmp_path, first_pause=0.2)
    running.start()
    try:
        checked_until(running, lambda: (tmp_path / "pool").exists() and child.process)
        assert child.process is not None
        first = child.process.pid
        pool = int((tmp_path / "pool").read_text())
        with caplog.at_level(logging.ERROR, logger="tavolo_site.supervisor"):
            os.kill(first, signal.SIGKILL)
            checked_until(running, lambda: child.process is not None and child.process.pid != first)
        assert not alive(pool)
        assert "the worker ended (killed by SIGKILL)" in caplog.text
        assert "starting it again in 0.2 s" in caplog.text
    finally:
        running.stop()
    assert child.process is not None and child.process.returncode is not None


def test_a_child_that_keeps_ending_waits_longer_each_time_up_to_the_most(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    child = Child("scheduler", ["sh", "-c", f"echo started >> {tmp_path}/starts; exit 3"])
    running = supervisor(child, tmp_path=tmp_path, first_pause=0.1, most_pause=0.4)
    starts = tmp_path / "starts"
    began = time.monotonic()
    with caplog.at_level(logging.ERROR, logger="tavolo_site.supervisor"):
        running.start()
        checked_until(running, lambda: starts.exists() and len(starts.read_text().split()) == 5)
    # Paused 0.1, 0.2, 0.4 and 0.4 s between its five starts.
    assert time.monotonic() - began >= 1.1
    ends = [record.getMessage() for record in caplog.records][:4]
    assert [end.rpartition(" in ")[2] for end in ends] == ["0.1 s", "0.2 s", "0.4 s", "0.4 s"]
    assert all(end.startswith("the scheduler ended (exit 3) after 0 s") for end in ends)
    running.stop()


def test_a_child_that_ran_steadily_before_it_ended_waits_the_first_pause_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    child = Child("web server", ["sh", "-c", "sleep 0.3; exit 1"])
    running = supervisor(child, tmp_path=tmp_path, first_pause=0.1, most_pause=5, steady=0.2)
    with caplog.at_level(logging.ERROR, logger="tavolo_site.supervisor"):
        running.start()
        checked_until(running, lambda: len(caplog.records) == 3)
    running.stop()
    ends = [record.getMessage() for record in caplog.records]
    assert [end.rpartition(" in ")[2] for end in ends] == ["0.1 s"] * 3
