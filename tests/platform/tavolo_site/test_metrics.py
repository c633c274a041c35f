"""/metrics: off unless allowed, then Tavolo's counters and the queue read from the database."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from pytest_django.fixtures import Settings

from bots.models import Bot
from bots.services import bot_version_upload
from ladders.models import Ladder
from matches.models import Match
from matches.services import match_create, match_run
from sandbox.process_bot import open_file_bot
from tests.platform.conftest import version_qualify_played

TOKEN = "s3cret-scraper-token"


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def token(settings: Settings) -> str:
    settings.TAVOLO_METRICS_TOKEN = TOKEN
    return TOKEN


def test_metrics_are_off_until_a_token_or_a_network_is_set(client: Client, db: None) -> None:
    assert client.get("/metrics").status_code == 404


def test_the_token_opens_the_metrics_and_nothing_else_does(
    client: Client, db: None, token: str
) -> None:
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get("/metrics", headers={"Authorization": token}).status_code == 403
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    assert "django_http_requests_total_by_method_total" in answer.content.decode()


def test_an_allowed_network_reads_the_metrics_from_any_host(
    client: Client, db: None, settings: Settings
) -> None:
    settings.TAVOLO_METRICS_NETWORKS = [ip_network("10.0.0.0/8")]
    settings.SECURE_SSL_REDIRECT = True
    inside = client.get("/metrics", REMOTE_ADDR="10.1.2.3", HTTP_HOST="10.0.0.5:8000")
    assert inside.status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="192.168.1.2").status_code == 403


def test_queue_depth_and_the_oldest_wait_are_read_at_each_scrape(
    client: Client, token: str, muggins_ladder: Ladder
) -> None:
    house = list(Bot.objects.filter(ladder=muggins_ladder).order_by("name"))
    versions = [bot.current_version for bot in house]
    for minutes in (5, 1):
        match = match_create(
            ladder=muggins_ladder, kind=Match.Kind.RANKED, versions=versions, enqueue=False
        )
        Match.objects.filter(pk=match.pk).update(
            queued_at=timezone.now() - timedelta(minutes=minutes)
        )
    scraped = samples(
        client.get("/metrics", headers={"Authorization": f"Bearer {token}"}).content.decode()
    )
    labels = frozenset({("ladder", "muggins-2"), ("kind", "ranked")})
    assert scraped[("tavolo_queued_matches", labels)] == 2
    assert 300 <= scraped[("tavolo_oldest_queued_match_age_seconds", labels)] < 330


def test_a_played_match_is_counted(
    alice: AbstractUser,
    muggins_ladder: Ladder,
    accepted_bot: Callable[..., Bot],
    unjailed: None,
    django_capture_on_commit_callbacks,
) -> None:
    labels = {"ladder": "muggins-2", "kind": "ranked"}
    before = {
        "played": value("tavolo_matches_total", **labels, outcome="played"),
        "decisions": value("tavolo_decisions_total", **labels),
        "durations": value("tavolo_match_duration_seconds_count", **labels),
        "ratings": value("tavolo_rating_updates_total", ladder="muggins-2"),
    }
    bot = accepted_bot(owner=alice, ladder=muggins_ladder, name="domino")
    house = Bot.objects.get(ladder=muggins_ladder, name="builtin:strong")
    versions = [bot.current_version, house.current_version]
    match = match_create(
        ladder=muggins_ladder, kind=Match.Kind.RANKED, versions=versions, enqueue=False
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert match_run(match_id=match.pk, worker="test-worker")
    match.refresh_from_db()
    assert value("tavolo_matches_total", **labels, outcome="played") == before["played"] + 1
    assert value("tavolo_decisions_total", **labels) == before["decisions"] + match.decisions
    assert value("tavolo_match_duration_seconds_count", **labels) == before["durations"] + 1
    assert value("tavolo_rating_updates_total", ladder="muggins-2") == before["ratings"] + 2


@pytest.mark.jail
def test_a_jail_start_is_counted_from_the_sandbox_log(tmp_path: Path, db: None) -> None:
    path = tmp_path / "bot.py"
    path.write_text("def act(observation):\n    return observation['legal_actions'][0]\n")
    before = value("tavolo_jail_events_total", event="start")
    bot = open_file_bot(path, jail=True)
    try:
        assert bot.start() is None
    finally:
        bot.close()
    assert value("tavolo_jail_events_total", event="start") == before + 1


@pytest.mark.jail
@pytest.mark.parametrize(
    ("bot_file", "outcome"), [("first_legal.py", "accepted"), ("crashing.py", "rejected")]
)
def test_a_qualification_is_counted_by_its_outcome(
    alice: AbstractUser,
    mia_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    bot_file: str,
    outcome: str,
) -> None:
    before = value("tavolo_qualifications_total", ladder=mia_ladder.slug, outcome=outcome)
    version = bot_version_upload(
        user=alice,
        ladder=mia_ladder,
        bot_name="tester",
        source_bytes=bot_source(bot_file),
        filename=bot_file,
    )
    version = version_qualify_played(version.pk)
    assert version.status == outcome
    after = value("tavolo_qualifications_total", ladder=mia_ladder.slug, outcome=outcome)
    assert after == before + 1
