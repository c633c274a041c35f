"""`tavolo standalone` keeps its processes up: the worker, the scheduler or the web server
killed is started again and logged, and the site goes on playing and answering."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.platform.tavolo_site.test_standalone import Site, standalone

pytestmark = pytest.mark.slow

BACK_SECONDS = 90
"""Time for a killed child to be started again and do its work (a loaded machine)."""
CHILDREN = {"worker": "worker", "scheduler": "beat", "web server": "gunicorn"}
"""Each child as the supervisor names it, and a word of its command line."""


def child_pid(site: Site, word: str) -> int | None:
    """The standalone's child whose command line has `word`, if one is running."""
    children = Path(f"/proc/{site.process.pid}/task/{site.process.pid}/children").read_text()
    for pid in map(int, children.split()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except FileNotFoundError:
            continue
        if word.encode() in command:
            return pid
    return None


def started_again(site: Site, word: str, killed: int) -> int:
    deadline = time.monotonic() + BACK_SECONDS
    while (pid := child_pid(site, word)) in (None, killed):
        assert site.process.poll() is None, site.log
        assert time.monotonic() < deadline, f"the {word} was not started again"
        time.sleep(0.2)
    assert pid is not None
    return pid


def web_answers(site: Site) -> bool:
    try:
        return httpx.get(f"{site.url}/healthz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def test_each_killed_child_is_started_again_and_the_site_plays_on(tmp_path: Path) -> None:
    with standalone(tmp_path) as site:
        site.wait_for_ranked_matches(1)
        for name, word in CHILDREN.items():
            killed = child_pid(site, word)
            assert killed is not None, site.log
            played = site.finished_ranked_matches()
            os.kill(killed, signal.SIGKILL)
            started_again(site, word, killed)
            site.wait_for_ranked_matches(played + 2)
            deadline = time.monotonic() + BACK_SECONDS
            while not web_answers(site):
                assert time.monotonic() < deadline, "the web server did not answer again"
                time.sleep(0.5)
            assert f"the {name} ended (killed by SIGKILL)" in site.log
    assert site.code == 0, site.log
