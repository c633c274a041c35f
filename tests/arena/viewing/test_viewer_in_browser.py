"""The viewer as a real browser (headless Chromium) draws it from `tavolo replay view`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs

import pytest

from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.games import make_game
from arena.runner import play_match
from arena.viewing import frames_document
from arena.viewing.local import ReplayHandler, ReplayServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK) and not os.environ.get("CI"), reason="needs chromium"
)


def rendered(url: str, budget_ms: int = 3000) -> str:
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
            f"--virtual-time-budget={budget_ms}",
            "--dump-dom",
            url,
        ]
        return subprocess.run(command, capture_output=True, text=True, timeout=60).stdout


def strong_match(game_name: str, players: int, options: dict, seed: int = 3) -> dict:
    strong = builtin_bots(game_name)["strong"]
    bots = [InProcessBot(f"bot {seat}", strong(seat)) for seat in range(players)]
    return play_match(make_game(game_name, players, None, options), bots, seed=seed).replay


@contextmanager
def serving(server: ReplayServer) -> Iterator[ReplayServer]:
    server.serve_in_thread()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def mia():
    replay = strong_match("mia", 3, {"lives": 2})
    with serving(ReplayServer(replay)) as server:
        yield replay, server


@pytest.fixture(scope="module")
def muggins():
    replay = strong_match("muggins", 2, {"target": 50})
    with serving(ReplayServer(replay)) as server:
        yield replay, server


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
    hands = full.split('class="hands"')[1]
    assert 'class="tally"' in full and "face-down" not in hands
    seat_view = rendered(f"{server.url}#event={play}&view=0")
    assert "face-down" in seat_view.split('class="hands"')[1]


class GrowingMatch(ReplayServer):
    """A match that seems to be played: each poll of /live.json reveals a third more."""

    def __init__(self, replay: dict) -> None:
        super().__init__(replay)
        self.shown = len(replay["events"]) // 3
        self.polls: list[int] = []

    def so_far(self) -> dict:
        partial = {key: value for key, value in self.replay.items() if key != "result"}
        partial["events"] = self.replay["events"][: self.shown]
        return partial

    def page(self) -> bytes:
        return super().page().replace(b"<div ", b'<div data-live-url="/live.json?match=1" ', 1)


class GrowingHandler(ReplayHandler):
    server: GrowingMatch

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        match = self.server
        if path == "/frames/public.json" and match.shown < len(match.replay["events"]):
            self._send(json.dumps(frames_document(match.so_far(), view="public")).encode(), ".json")
        elif path == "/live.json":
            since = int(parse_qs(query)["since"][0])
            match.polls.append(since)
            match.shown = min(
                len(match.replay["events"]), match.shown + len(match.replay["events"]) // 3 + 1
            )
            document = frames_document(match.so_far(), view="public", since=since)
            update = {
                "finished": document["finished"],
                "steps": document["steps"],
                "next": document["next"],
            }
            self._send(json.dumps(update).encode(), ".json")
        else:
            super().do_GET()


def test_a_live_match_is_followed_until_it_ends_then_every_view_is_offered():
    replay = strong_match("mia", 3, {"lives": 2}, seed=8)
    match = GrowingMatch(replay)
    match.RequestHandlerClass = GrowingHandler
    with serving(match):
        dom = rendered(match.url, budget_ms=12000)
    third = len(replay["events"]) // 3
    assert match.polls[0] == third and match.polls == sorted(match.polls)
    assert match.shown == len(replay["events"])
    assert "The match is over" in dom and 'class="standings"' in dom
    assert '<option value="full" selected="">' in dom and 'class="tv-live"' not in dom


def test_the_tally_draws_a_crossed_x_for_each_fifty_and_a_stroke_for_each_five(muggins):
    replay, server = muggins
    dom = rendered(f"{server.url}#event={len(replay['events']) - 1}")
    for score in replay["result"]["scores"]:
        tally = re.search(rf'aria-label="tally of {score} points">(.*?)</span>', dom).group(1)
        fives = abs(score) // 5
        assert tally.count('class="tally-fifty"') == fives // 10
        assert tally.count("<line") == (fives // 10) * 10 + fives % 10
