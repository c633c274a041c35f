"""The viewer's data: frames by view, the owner's logs by decision, and live matches."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.db import connection
from django.db.models.signals import post_save
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arena.bots.inprocess import InProcessBot
from arena.replay import loads_replay, public_replay
from arena.runner import play_match as arena_play_match
from arena.viewing import FULL, PUBLIC, frames_document
from bots.models import Bot
from ladders.models import Ladder
from matches.frames import match_frames_names
from matches.live import ProgressWriter
from matches.models import Match, MatchProgress
from matches.services import match_create
from tests.platform.conftest import current_version_make

PRINTING = (
    "import sys\n"
    "def act(observation):\n"
    "    print('thinking about', len(observation['legal_actions']), 'moves', file=sys.stderr)\n"
    "    return observation['legal_actions'][0]\n"
)


def get_json(client: Client, path: str, status: int = 200) -> dict:
    answer = client.get(path)
    assert answer.status_code == status, f"{path}: {answer.status_code}"
    return json.loads(answer.content) if status == 200 else {}


@pytest.fixture
def printing_bot(alice_bot: Bot) -> Bot:
    """alice's Muggins bot, printing a line each time it decides."""
    return current_version_make(alice_bot, PRINTING, number=2)


@pytest.fixture
def printed(play_match: Callable[..., Match], printing_bot: Bot, house: Bot) -> Match:
    return play_match(printing_bot.ladder, printing_bot, house)


def hands_shown(document: dict, seat: int) -> int:
    return sum(step["table"]["players"][seat]["hand"] is not None for step in document["steps"])


def test_a_finished_match_has_every_view_and_only_the_full_one_shows_every_hand(
    client: Client, played: Match
) -> None:
    base = f"/matches/{played.pk}/frames/"
    full = get_json(client, base + "full.json")
    public = get_json(client, base + "public.json")
    seat_one = get_json(client, base + "seat-1.json")
    assert (full["view"], public["view"], seat_one["view"]) == ("full", "public", 1)
    assert full["finished"] and len(full["steps"]) == len(public["steps"])
    assert hands_shown(full, 1) == len(full["steps"])
    assert hands_shown(seat_one, 1) > hands_shown(public, 1)
    assert hands_shown(seat_one, 0) == hands_shown(public, 0) < len(full["steps"])
    assert client.get(base + "full.json")["Cache-Control"] == "public, max-age=3600"
    assert client.get(base + "seat-2.json").status_code == 404


@pytest.mark.parametrize(
    ("accept", "gzipped"),
    [("gzip, deflate, br", True), ("br;q=1.0, gzip;q=0.5", True), ("gzip;q=0", False), ("", False)],
)
def test_a_finished_matchs_frames_are_sent_gzipped_to_a_client_that_takes_gzip(
    client: Client, played: Match, accept: str, gzipped: bool
) -> None:
    path = f"/matches/{played.pk}/frames/public.json"
    plain = client.get(path).content
    answer = client.get(path, headers={"Accept-Encoding": accept})
    assert answer["Vary"] == "Accept-Encoding"
    assert (answer.get("Content-Encoding") == "gzip") == gzipped
    body = gzip.decompress(answer.content) if gzipped else answer.content
    assert body == plain and json.loads(body)["view"] == "public"
    if gzipped:
        assert len(answer.content) * 5 < len(plain)


def test_a_finished_matchs_frames_are_answered_early_to_visitors_as_to_everyone(
    client: Client, played: Match, alice_browser: Client
) -> None:
    path = f"/matches/{played.pk}/frames/seat-1.json"
    signed_in = alice_browser.get(path, headers={"Accept-Encoding": "gzip"})
    through_stack = client.get(path, headers={"Accept-Encoding": "gzip"})
    with CaptureQueriesContext(connection) as captured:
        early = Client().get(path, headers={"Accept-Encoding": "gzip"})
    assert not hasattr(early.wsgi_request, "user") and len(captured) == 0  # before auth
    assert early.content == through_stack.content == signed_in.content
    for answer in (signed_in, through_stack, early):
        assert answer["Cache-Control"] == "public, max-age=3600"
        assert answer["Content-Encoding"] == "gzip"
    assert through_stack["Vary"] == early["Vary"] == "Accept-Encoding"  # shared caches keep it


def test_a_live_matchs_frames_are_never_answered_from_a_copy(
    client: Client, running: tuple[Match, list[dict]]
) -> None:
    match, _ = running
    for _ in range(3):
        answer = client.get(f"/matches/{match.pk}/frames/full.json")
        assert hasattr(answer.wsgi_request, "user") and "no-cache" in answer["Cache-Control"]


def test_a_matchs_full_frames_are_made_when_first_asked_for_then_served_from_storage(
    client: Client,
    play_match: Callable[..., Match],
    alice_bot: Bot,
    house: Bot,
    celery_eager: None,
    django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        played = play_match(alice_bot.ladder, alice_bot, house)
    [name] = match_frames_names(match_ids=[played.pk])
    assert not default_storage.exists(name)  # a match nobody watches costs no frames
    first = client.get(f"/matches/{played.pk}/frames/full.json")
    assert first.status_code == 200
    with default_storage.open(name, "rb") as stored:
        prepared = gzip.decompress(stored.read())
    with played.replay.open("rb") as replay:
        recorded = loads_replay(replay.read())
    assert json.loads(prepared) == frames_document(recorded, view=FULL)
    assert json.loads(prepared)["finished"]
    played.replay.delete(save=False)  # the stored frames need the replay no more
    cache.clear()
    answer = client.get(f"/matches/{played.pk}/frames/full.json")
    assert answer.status_code == 200 and answer.content == prepared


def test_a_match_page_mounts_the_viewer_with_every_view(client: Client, played: Match) -> None:
    html = client.get(f"/matches/{played.pk}/").content.decode()
    assert f'data-frames-url="/matches/{played.pk}/frames/full.json"' in html
    assert f'data-seat-frames-url="/matches/{played.pk}/frames/seat-{{seat}}.json"' in html
    assert "data-live-url" not in html and "data-logs-url" not in html


def test_the_owner_reads_what_their_bot_printed_decision_by_decision(
    alice_browser: Client, printed: Match
) -> None:
    html = alice_browser.get(f"/matches/{printed.pk}/").content.decode()
    assert f'data-logs-url="/matches/{printed.pk}/logs.json"' in html
    logs = get_json(alice_browser, f"/matches/{printed.pk}/logs.json")
    assert list(logs["seats"]) == ["0"]
    entries = logs["seats"]["0"]
    assert entries and all("thinking about" in entry["text"] for entry in entries)
    events = get_json(alice_browser, f"/matches/{printed.pk}/frames/full.json")["steps"]
    actions = {step["index"] for step in events if "decision" in step["marks"]}
    assert {entry["index"] for entry in entries} <= actions


def test_no_one_else_reads_the_logs(
    client: Client, bob_browser: Client, printed: Match, bob: AbstractUser
) -> None:
    for browser in (client, bob_browser):
        assert browser.get(f"/matches/{printed.pk}/logs.json").status_code == 404
        html = browser.get(f"/matches/{printed.pk}/").content.decode()
        assert "data-logs-url" not in html
    bob.is_staff = True
    bob.save()
    assert set(get_json(bob_browser, f"/matches/{printed.pk}/logs.json")["seats"]) == {"0", "1"}


@pytest.fixture
def progress_saves() -> Iterator[list[tuple[int, int]]]:
    """Each progress write as the worker makes them: (its first event, its number of events)."""
    saves: list[tuple[int, int]] = []

    def saved(instance: MatchProgress, **kwargs: object) -> None:
        saves.append((instance.start, len(instance.events)))

    post_save.connect(saved, sender=MatchProgress)
    yield saves
    post_save.disconnect(saved, sender=MatchProgress)


def test_a_worker_writes_progress_while_playing_and_clears_it_after(
    play_match: Callable[..., Match],
    printing_bot: Bot,
    house: Bot,
    progress_saves: list[tuple[int, int]],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    monkeypatch.setattr("matches.live.PROGRESS_SECONDS", 0.0)
    settings.TAVOLO_LIVE_AFTER_MS = 0
    played = play_match(printing_bot.ladder, printing_bot, house)
    assert progress_saves and progress_saves[0][0] == 0 and progress_saves[0][1] < played.decisions
    assert not MatchProgress.objects.exists()


def test_a_match_played_faster_than_progress_is_written_writes_and_clears_nothing(
    play_match: Callable[..., Match],
    printing_bot: Bot,
    house: Bot,
    progress_saves: list[tuple[int, int]],
    django_assert_num_queries: Callable[..., Any],
    settings: Any,
) -> None:
    settings.TAVOLO_LIVE_AFTER_MS = 3_600_000
    play_match(printing_bot.ladder, printing_bot, house)
    assert not progress_saves
    writer = ProgressWriter(match_id=1, attempt=1)
    with django_assert_num_queries(0):
        writer.clear()


def test_a_match_played_again_clears_the_progress_its_lost_run_wrote(
    running: tuple[Match, list[dict]],
) -> None:
    match, _ = running
    again = ProgressWriter(match_id=match.pk, attempt=2)
    again.clear()
    assert not MatchProgress.objects.filter(match=match).exists()


RUNNING_NAMES = ["alice/domino@v1", "builtin:strong"]


def progress_writer(match: Match, attempt: int = 1) -> ProgressWriter:
    """A worker's progress writer for the `running` match."""
    game, seed = match.ladder.make_game(), int(match.seed, 16)
    writer = ProgressWriter(match_id=match.pk, attempt=attempt)
    writer.start(game=game, seed=seed, bot_names=RUNNING_NAMES)
    writer.written_at = float("-inf")  # as if the match had been played for a while
    return writer


@pytest.fixture
def running(muggins_ladder: Ladder, alice_bot: Bot, house: Bot) -> tuple[Match, list[dict]]:
    """A match being played, with its first 40 events written, and all its events."""
    match = match_create(
        ladder=muggins_ladder,
        kind=Match.Kind.RANKED,
        versions=[alice_bot.current_version, house.current_version],
        enqueue=False,
    )
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, attempts=1)
    game, seed = muggins_ladder.make_game(), int(match.seed, 16)
    first = [InProcessBot(name, lambda seen: seen["legal_actions"][0]) for name in RUNNING_NAMES]
    events = arena_play_match(game, first, seed=seed).replay["events"]
    progress_writer(match)(events[:40])
    return Match.objects.get(pk=match.pk), events


def test_each_progress_write_holds_only_the_events_since_the_last(
    running: tuple[Match, list[dict]], progress_saves: list[tuple[int, int]], client: Client
) -> None:
    match, events = running
    write = progress_writer(match)
    for end in (55, 70):
        write.written_at = float("-inf")
        write(events[:end])
    assert progress_saves[-2:] == [(0, 55), (55, 15)]
    steps = get_json(client, f"/matches/{match.pk}/live.json?since=50")["steps"]
    assert [step["index"] for step in steps] == list(range(50, 70))


def test_a_write_stored_twice_shows_its_events_once(
    running: tuple[Match, list[dict]], client: Client
) -> None:
    match, events = running
    # The fixture's write of 40 events went through, but its writer took it for failed and
    # begins again from event 0; later writes go on from wherever each writer stands.
    again = progress_writer(match)
    again(events[:50])
    again.written_at = float("-inf")
    again(events[:60])
    steps = get_json(client, f"/matches/{match.pk}/live.json")["steps"]
    assert [step["index"] for step in steps] == list(range(60))
    assert get_json(client, f"/matches/{match.pk}/frames/public.json")["next"] == 60


def test_a_match_played_again_is_watched_from_its_new_run_alone(
    running: tuple[Match, list[dict]], client: Client
) -> None:
    match, lost_events = running
    lost_run = progress_writer(match)
    for end in (40, 60):  # the lost run went on to write events 40 to 60 as a piece of their own
        lost_run.written_at = float("-inf")
        lost_run(lost_events[:end])
    game, seed = match.ladder.make_game(), int(match.seed, 16)
    last = [InProcessBot(name, lambda seen: seen["legal_actions"][-1]) for name in RUNNING_NAMES]
    replay = arena_play_match(game, last, seed=seed).replay
    assert replay["events"][:50] != lost_events[:50]  # the new run's game goes otherwise
    Match.objects.filter(pk=match.pk).update(attempts=2)
    progress_writer(match, attempt=2)(replay["events"][:50])
    expected = frames_document(
        public_replay({**replay, "events": replay["events"][:50]}), view=PUBLIC
    )
    assert get_json(client, f"/matches/{match.pk}/live.json")["steps"] == expected["steps"]
    public = get_json(client, f"/matches/{match.pk}/frames/public.json")
    assert public["steps"] == expected["steps"] and public["next"] == 50
    assert get_json(client, f"/matches/{match.pk}/frames/full.json")["next"] == 50


def test_a_live_match_shows_public_steps_since_the_last_poll(
    client: Client, running: tuple[Match, list[dict]]
) -> None:
    match, _ = running
    first = get_json(client, f"/matches/{match.pk}/live.json")
    assert not first["finished"] and first["next"] == 40
    assert [step["index"] for step in first["steps"]] == list(range(40))
    mid_hand = [step["table"] for step in first["steps"] if step["table"]["hand_end"] is None]
    assert mid_hand and all(table["players"][1]["hand"] is None for table in mid_hand)
    later = get_json(client, f"/matches/{match.pk}/live.json?since=38")
    assert [step["index"] for step in later["steps"]] == [38, 39]
    assert client.get(f"/matches/{match.pk}/live.json?since=-1").status_code == 400
    assert client.get(f"/matches/{match.pk}/live.json?since=x").status_code == 400


def test_while_live_the_viewer_opens_on_the_public_view_only(
    client: Client, running: tuple[Match, list[dict]]
) -> None:
    match, _ = running
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-live-url="/matches/{match.pk}/live.json"' in html
    assert "data-seat-frames-url" not in html
    opening = get_json(client, f"/matches/{match.pk}/frames/full.json")
    assert opening["view"] == "public" and not opening["finished"]
    assert "no-cache" in client.get(f"/matches/{match.pk}/frames/full.json")["Cache-Control"]
    assert client.get(f"/matches/{match.pk}/frames/seat-0.json").status_code == 404
    assert client.get(f"/matches/{match.pk}/replay.json").status_code == 404


def test_a_live_match_says_when_it_has_finished(client: Client, played: Match) -> None:
    assert get_json(client, f"/matches/{played.pk}/live.json?since=12") == {
        "finished": True,
        "steps": [],
        "next": 12,
    }


def test_a_match_not_yet_started_reloads_until_it_can_be_watched(
    client: Client, muggins_ladder: Ladder, alice_bot: Bot, house: Bot
) -> None:
    match = match_create(
        ladder=muggins_ladder,
        kind=Match.Kind.RANKED,
        versions=[alice_bot.current_version, house.current_version],
        enqueue=False,
    )
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert '<meta http-equiv="refresh"' in html and "tavolo-viewer" not in html
    assert client.get(f"/matches/{match.pk}/frames/full.json").status_code == 404
