"""A match of `tavolo standalone` watched live in Chromium, until it turns into its replay.

The whole standalone set-up plays it (SQLite, the folder broker, one worker, the
scheduler, the demo bots), so what is checked is what a visitor sees: the
viewer opens on the match while it is played, follows its steps, and lands on
the finished replay with every view.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

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


def live_counters(page: Page) -> set[str]:
    """The step counters the viewer showed while it said LIVE."""
    seen: set[str] = set()
    while page.locator(".tv-live").count():
        seen.add(page.inner_text(".tv-counter"))
        time.sleep(0.1)
    return seen


def test_a_running_match_is_followed_live_and_lands_on_its_replay(
    tmp_path: Path, chromium: Browser
) -> None:
    with standalone(tmp_path, **SETTINGS) as site:
        site.wait_for_ranked_matches(1)
        errors: list[str] = []
        deadline = time.monotonic() + CATCH_SECONDS
        seen: set[str] = set()
        tried: list[int] = []
        while not seen:
            assert time.monotonic() < deadline, f"none of matches {tried} was followed live"
            match_id = running_ranked_match(site)
            if match_id is None:
                time.sleep(POLL_SECONDS)
                continue
            tried.append(match_id)
            page = chromium.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{site.url}/matches/{match_id}/")
            if page.locator(".tavolo-viewer[data-live-url]").count():  # still played
                page.wait_for_selector(".tavolo-viewer .tv-stage *", timeout=WAIT_MS)
                seen = live_counters(page)
                page.wait_for_selector(
                    ".tv-view option[value='full']", state="attached", timeout=WAIT_MS
                )
            page.close()
        assert httpx.get(f"{site.url}/api/matches/{match_id}/", timeout=30).json()["status"] == (
            "finished"
        )
        assert not errors
    assert site.code == 0, site.log
