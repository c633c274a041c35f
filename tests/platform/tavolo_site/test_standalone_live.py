"""A match of `tavolo standalone` followed while it is played, then opened as its replay.

The whole standalone set-up plays it (SQLite, the folder broker, one worker, the
scheduler, the demo bots), so what is checked is the standalone's own path: the
worker writes the match's progress, the web server (another process) answers it
as the live frames while the match is played, and the finished match opens in
Chromium as its replay with every view. Its matches last well under a second,
so the live frames are polled rather than watched in a page; the viewer's live
mode is watched in Chromium with a match held running in
tests/platform/web/test_in_browser.py.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from tests.platform.tavolo_site.test_standalone import Site, standalone

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CATCH_SECONDS = 480
"""How long to keep opening running matches until one is seen live (a match may last
under a second, so one live step is what a page opened on it can count on)."""
LADDER = "muggins-4"
"""Its matches last longest, so a page opened on one may find it still played; its progress
is written from its first event (`TAVOLO_LIVE_AFTER_MS=0`), as most last under the default."""
WAIT_MS = 30_000
POLL_SECONDS = 0.05
READ_RATE = "100000/minute"
"""The test looks for a running match far more often than a visitor's read budget allows."""
SETTINGS = {"TAVOLO_ANONYMOUS_READ_RATE": READ_RATE, "TAVOLO_LIVE_AFTER_MS": "0"}


def running_ranked_match(site: Site) -> int | None:
    query = f"?kind=ranked&ladder={LADDER}"
    answer = httpx.get(f"{site.url}/api/matches/{query}", timeout=30)
    answer.raise_for_status()
    listed = answer.json()["results"]
    return next((match["id"] for match in listed if match["status"] == "running"), None)


def live_frames(site: Site, match_id: int) -> dict | None:
    """The match's frames so far while it is played, or None (not started yet, or over)."""
    answer = httpx.get(f"{site.url}/matches/{match_id}/frames/full.json", timeout=30)
    if answer.status_code != 200:
        return None
    document = answer.json()
    return None if document["finished"] else document


def test_a_running_match_is_followed_live_and_lands_on_its_replay(
    tmp_path: Path, chromium: Browser
) -> None:
    with standalone(tmp_path, **SETTINGS) as site:
        site.wait_for_ranked_matches(1)
        deadline = time.monotonic() + CATCH_SECONDS
        followed: dict[int, set[int]] = {}  # a running match: the step counts it showed live
        while not any(followed.values()):
            assert time.monotonic() < deadline, f"none of matches {list(followed)} was followed"
            match_id = running_ranked_match(site)
            if match_id is None:
                time.sleep(POLL_SECONDS)
                continue
            steps = followed.setdefault(match_id, set())
            while running_ranked_match(site) == match_id:
                document = live_frames(site, match_id)
                if document is not None:
                    steps.add(len(document["steps"]))
                time.sleep(POLL_SECONDS)
        assert all(count > 0 for count in followed[match_id])
        while match_status(site, match_id) != "finished":
            assert time.monotonic() < deadline, f"match {match_id} did not finish"
            time.sleep(POLL_SECONDS)
        errors: list[str] = []
        page = chromium.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{site.url}/matches/{match_id}/")
        page.wait_for_selector(".tv-view option[value='full']", state="attached", timeout=WAIT_MS)
        assert not page.locator(".tavolo-viewer[data-live-url]").count()
        page.close()
        assert not errors
    assert site.code == 0, site.log


def match_status(site: Site, match_id: int) -> str:
    return httpx.get(f"{site.url}/api/matches/{match_id}/", timeout=30).json()["status"]
