"""The site in a real browser: Playwright driving Debian's Chromium against a live server.

Ladder, bot and match pages; the viewer playing and stepping a Mia and a Muggins
replay, opening at ``#event=N`` and switching to a player's view; the owner's
logs; the download; and a match watched live until it ends. The Mia test
takes a screenshot of the viewer, and writes it for the README
(docs/images/viewer.png) only when ``TAVOLO_UPDATE_SCREENSHOTS=1`` asks, so that
a test run leaves the checkout as it found it.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.runner import play_match as arena_play_match
from bots.models import Bot
from ladders.models import Ladder
from matches.finish import match_finish
from matches.live import ProgressWriter
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome, match_outcome_store
from matches.services import match_claim, match_create
from tests.platform.web.test_watching import PRINTING, printed, printing_bot
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.services import tournament_advance, tournament_freeze, tournament_start

__all__ = ["printed", "printing_bot"]

pytestmark = pytest.mark.browser

README_SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "images" / "viewer.png"
UPDATE_SCREENSHOTS = os.environ.get("TAVOLO_UPDATE_SCREENSHOTS") == "1"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 800}
WAIT_MS = 15_000


@pytest.fixture
def open_page(chromium, live_server) -> Iterator[Callable[..., object]]:
    """A new page of a fresh browser context, logged in as `user` when given."""
    contexts = []

    def open_page(path: str, user: AbstractUser | None = None):
        context = chromium.new_context(viewport=DESKTOP, accept_downloads=True)
        contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies["sessionid"]
            context.add_cookies(
                [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
            )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        page.errors = errors
        page.goto(live_server.url + path)
        return page

    yield open_page
    for context in contexts:
        context.close()


def viewer_ready(page) -> None:
    page.wait_for_selector(".tavolo-viewer .tv-play", timeout=WAIT_MS)
    page.wait_for_selector(".tavolo-viewer .tv-stage *", timeout=WAIT_MS)


def counter(page) -> str:
    return page.inner_text(".tv-counter")


@pytest.fixture
def mia_match(
    play_match: Callable[..., Match],
    accepted_bot: Callable[..., Bot],
    alice: AbstractUser,
    mia_ladder: Ladder,
) -> Match:
    mine = accepted_bot(owner=alice, ladder=mia_ladder, name="liar")
    strong = Bot.objects.get(ladder=mia_ladder, name="builtin:strong")
    random = Bot.objects.get(ladder=mia_ladder, name="builtin:random")
    return play_match(mia_ladder, mine, strong, random, strong)


def replay_of(match: Match) -> dict:
    with match.replay.open("rb") as stored:
        return json.loads(gzip.decompress(stored.read()))


def test_the_ladder_sorts_and_leads_to_a_bot_with_its_charts(open_page, played: Match) -> None:
    page = open_page("/ladders/muggins-2/")
    rating = page.locator("#standings th", has_text="rating")
    rating.locator("button").click()
    assert rating.get_attribute("aria-sort") == "ascending"
    rating.locator("button").click()
    assert rating.get_attribute("aria-sort") == "descending"
    page.click("#standings a:text('domino')")
    page.wait_for_selector("svg.chart")
    assert page.locator("h1").inner_text() == "domino"
    assert not page.errors


def test_a_bots_page_fits_a_phone_its_tables_read_as_blocks(
    open_page, played: Match, alice_bot: Bot
) -> None:
    page = open_page(f"/bots/{alice_bot.pk}/")
    page.set_viewport_size(PHONE)
    overflow = page.evaluate(
        "[...document.querySelectorAll('table')].map(t => t.scrollWidth - t.clientWidth)"
    )
    assert len(overflow) >= 4 and max(overflow) <= 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.locator("table.stacked thead").first.is_visible()
    label = "getComputedStyle(document.querySelector('td[data-label=before]'), '::before').content"
    assert page.evaluate(label) == '"before: "'
    assert not page.errors


def test_a_mia_replay_plays_steps_follows_a_link_and_hides_dice_in_a_players_view(
    open_page, mia_match: Match
) -> None:
    page = open_page(f"/matches/{mia_match.pk}/")
    viewer_ready(page)
    first = counter(page)
    page.click("button[aria-label='Step forward (→)']")
    assert counter(page) != first
    page.click(".tv-play")
    expect(page.locator(".tv-counter")).not_to_have_text(counter(page), timeout=WAIT_MS)
    page.click(".tv-play")

    events = replay_of(mia_match)["events"]
    roll = next(index for index, event in enumerate(events) if event["type"] == "dice")
    roller = events[roll]["seat"]
    page.goto(f"{page.url.split('#')[0]}#event={roll}")
    page.wait_for_selector(f'a[href="#event={roll}"][aria-current="step"]', timeout=WAIT_MS)
    assert page.locator(".tv-stage .die").count() == 2
    shot = page.locator(".tavolo-viewer").screenshot(
        path=str(README_SCREENSHOT) if UPDATE_SCREENSHOTS else None
    )
    assert shot.startswith(PNG_SIGNATURE)

    page.select_option(".tv-view", str((roller + 1) % 4))
    page.wait_for_selector(".tv-stage .hidden-dice", timeout=WAIT_MS)
    assert page.locator(".tv-stage .die").count() == 0
    page.select_option(".tv-view", str(roller))
    page.wait_for_selector(".tv-stage .die", timeout=WAIT_MS)
    assert page.locator(".tv-stage .die").count() == 2
    assert not page.errors


def test_a_muggins_replay_shows_every_hand_and_a_players_view_only_its_own(
    open_page, played: Match
) -> None:
    events = replay_of(played)["events"]
    play = next(index for index, event in enumerate(events) if event["type"] == "play")
    page = open_page(f"/matches/{played.pk}/#event={play}")
    viewer_ready(page)
    hands = page.locator(".tv-stage .hands")
    assert hands.locator(".domino").count() > 0
    assert hands.locator(".face-down").count() == 0
    page.select_option(".tv-view", "0")
    page.wait_for_selector(".tv-stage .hands .face-down", timeout=WAIT_MS)
    assert not page.errors


def test_the_owner_sees_what_their_bot_printed_and_bob_does_not(
    open_page, printed: Match, alice: AbstractUser, bob: AbstractUser
) -> None:
    decided = next(
        entry["index"] for entry in json.loads(printed.seats.get(seat=0).log_entries.read())
    )
    path = f"/matches/{printed.pk}/#event={decided}"
    owner = open_page(path, user=alice)
    viewer_ready(owner)
    owner.wait_for_selector(".tv-log", timeout=WAIT_MS)
    assert "thinking about" in owner.inner_text(".tv-logs")
    other = open_page(path, user=bob)
    viewer_ready(other)
    assert "thinking about" not in other.inner_text(".tavolo-viewer")
    assert other.locator(".tv-log").count() == 0
    assert "thinking about" in PRINTING


def test_the_replay_downloads_under_its_file_name(open_page, played: Match) -> None:
    page = open_page(f"/matches/{played.pk}/")
    with page.expect_download() as download:
        page.click("a:text('gzipped JSON')")
    assert download.value.suggested_filename == f"tavolo-match-{played.pk}.json.gz"
    data = Path(download.value.path()).read_bytes()
    assert json.loads(gzip.decompress(data))["format"] == "tavolo-replay"


def test_a_live_match_is_watched_in_the_public_view_until_it_ends(
    open_page, muggins_ladder: Ladder, alice_bot: Bot, house: Bot
) -> None:
    match = match_create(
        ladder=muggins_ladder,
        kind=Match.Kind.RANKED,
        versions=[alice_bot.current_version, house.current_version],
        enqueue=False,
    )
    attempt = match_claim(match_id=match.pk, worker="browser-test")
    assert attempt == 1
    game, seed = muggins_ladder.make_game(), int(match.seed, 16)
    names = ["alice/domino@v1", "builtin:strong"]
    strong = builtin_bots("muggins")["strong"]
    bots = [InProcessBot(name, strong(seat)) for seat, name in enumerate(names)]
    record = arena_play_match(game, bots, seed=seed)
    events = record.replay["events"]
    write = ProgressWriter(match_id=match.pk, attempt=attempt)
    write.start(game=game, seed=seed, bot_names=names)
    write.written_at = float("-inf")  # as if the match had been played for a while
    write(events[: len(events) // 3])

    page = open_page(f"/matches/{match.pk}/")
    viewer_ready(page)
    page.wait_for_selector(".tv-live", timeout=WAIT_MS)
    assert page.locator(".tv-view option[value='full']").count() == 0  # the public view only
    before = counter(page)
    write.written_at = float("-inf")
    write(events[: 2 * len(events) // 3])
    expect(page.locator(".tv-counter")).not_to_have_text(before, timeout=WAIT_MS)
    match.refresh_from_db()
    assert match_finish(match_id=match.pk, outcome=match_outcome_store(match=match, record=record))
    page.wait_for_selector(".tv-live", state="detached", timeout=WAIT_MS)
    page.wait_for_selector(".tv-view option[value='full']", state="attached", timeout=WAIT_MS)
    expect(page.locator("#match-facts .tag")).to_have_text("finished", timeout=WAIT_MS)
    expect(page.locator("#match-record a", has_text="gzipped JSON")).to_be_visible()
    assert page.locator("#live-note").count() == 0
    places = page.locator("#match-record tbody td:nth-child(4)").all_inner_texts()
    assert sorted(places) == ["1", "2"]
    assert not page.errors


def test_a_running_tournaments_standings_follow_its_results_without_a_reload(
    open_page, alice: AbstractUser, muggins_ladder: Ladder, accepted_bot, settings, monkeypatch
) -> None:
    monkeypatch.setattr("web.views.tournaments.REFRESH_SECONDS", 1)
    settings.TAVOLO_TOURNAMENT_BATCH = 1
    now = timezone.now()
    tournament = Tournament.objects.create(
        slug="night-cup",
        name="Night Cup",
        ladder=muggins_ladder,
        format="round-robin",
        entries_open_at=now - timedelta(hours=3),
        entries_close_at=now - timedelta(hours=2),
        starts_at=now - timedelta(hours=1),
    )
    for name in ("ace", "bee", "cat"):
        bot = accepted_bot(owner=alice, ladder=muggins_ladder, name=name)
        Entry.objects.create(tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=now)
    tournament_start(tournament_id=tournament.pk, now=now)

    page = open_page("/tournaments/night-cup/")
    expect(page.locator("#tournament-live")).to_contain_text("to play")
    page.evaluate("window.sameDocument = true")
    (table,) = TournamentTable.objects.filter(tournament=tournament)
    places = [1, 2]
    outcome = MatchOutcome(
        result={"places": places}, seats=[SeatOutcome(place=p) for p in places], decisions=4
    )
    assert match_finish(match_id=table.match_id, outcome=outcome)
    tournament_advance(tournament_id=tournament.pk)
    schedule = page.locator("#tournament-live table").last
    expect(schedule.locator("tbody tr").first).to_contain_text("1, 2", timeout=WAIT_MS)
    assert page.evaluate("window.sameDocument") is True  # swapped in, not reloaded
    assert not page.errors
