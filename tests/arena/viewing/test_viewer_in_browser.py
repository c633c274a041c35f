"""The viewer as a real browser (headless Chromium) draws it from `tavolo replay view`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

import pytest

from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.games import make_game
from arena.runner import play_match
from arena.viewing.local import ReplayServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK) and not os.environ.get("CI"), reason="needs chromium"
)


def rendered(url: str) -> str:
    """The page's DOM once its modules have run."""
    with tempfile.TemporaryDirectory() as profile:
        command = [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=3000",
            "--dump-dom",
            url,
        ]
        return subprocess.run(command, capture_output=True, text=True, timeout=60).stdout


def served(game_name: str, players: int, options: dict):
    strong = builtin_bots(game_name)["strong"]
    bots = [InProcessBot(f"bot {seat}", strong(seat)) for seat in range(players)]
    replay = play_match(make_game(game_name, players, None, options), bots, seed=3).replay
    server = ReplayServer(replay)
    server.serve_in_thread()
    return replay, server


@pytest.fixture(scope="module")
def mia():
    replay, server = served("mia", 3, {"lives": 2})
    yield replay, server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def muggins():
    replay, server = served("muggins", 2, {"target": 50})
    yield replay, server
    server.shutdown()
    server.server_close()


def first(replay: dict, kind: str) -> int:
    return next(i for i, event in enumerate(replay["events"]) if event["type"] == kind)


def test_a_mia_reveal_lifts_the_cup_at_the_linked_event(mia):
    replay, server = mia
    reveal = first(replay, "reveal")
    dom = rendered(f"{server.url}#event={reveal}")
    assert 'class="mia-table felt"' in dom
    assert re.search(rf'href="#event={reveal}" aria-current="step"', dom)
    assert dom.count('class="die"') == 2 and "cup lifting" in dom
    assert "accuses" in dom and "tv-step-text" in dom


def test_the_public_view_has_no_dice_under_the_cup(mia):
    replay, server = mia
    announce = first(replay, "announce")
    full = rendered(f"{server.url}#event={announce}")
    public = rendered(f"{server.url}#event={announce}&view=public")
    assert full.count('class="die"') == 2
    assert public.count('class="die"') == 0 and 'class="hidden-dice"' in public
    assert '<option value="public" selected="">' in public


def test_muggins_draws_the_line_the_hands_and_the_tally(muggins):
    replay, server = muggins
    play = next(
        i for i, event in enumerate(replay["events"]) if event["type"] == "play" and event["credit"]
    )
    full = rendered(f"{server.url}#event={play}")
    assert full.count('class="domino ') >= 2 and 'class="credit-tag"' in full
    assert 'class="tally"' in full and "face-down" not in full
    seat_view = rendered(f"{server.url}#event={play}&view=0")
    assert "face-down" in seat_view
