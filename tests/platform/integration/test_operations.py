"""Operations on the real stack: a worker's metrics and JSON logs, /readyz and the broker."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from matches.services import match_create
from tests.platform.integration.conftest import RedisServer, RunningWorker, celery_broker

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.jail]

METRICS_URL = re.compile(r"worker metrics on (http://[0-9.]+:[0-9]+/metrics)")


def worker_metrics_url(worker: RunningWorker, wait_for: Callable[..., None]) -> str:
    """The address the worker's metrics server says it listens on."""
    wait_for(lambda: METRICS_URL.search(worker.log.read_text()), seconds=30, what="metrics")
    found = METRICS_URL.search(worker.log.read_text())
    assert found
    return found.group(1)


def scrape(url: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = httpx.get(url, timeout=10).text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_a_match_on_a_real_worker_moves_its_metrics_and_its_logs_carry_the_match_id(
    alice: AbstractUser,
    muggins_ladder: Ladder,
    accepted_bot: Callable[..., Bot],
    start_worker: Callable[..., RunningWorker],
    wait_for: Callable[..., None],
    tmp_path: Path,
) -> None:
    (tmp_path / "metrics").mkdir()
    worker = start_worker(
        TAVOLO_WORKER_METRICS_PORT="0",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
        TAVOLO_LOG_FORMAT="json",
    )
    url = worker_metrics_url(worker, wait_for)
    ranked = frozenset({("ladder", "muggins-2"), ("kind", "ranked")})
    played = ("tavolo_matches_total", ranked | {("outcome", "played")})
    decisions = ("tavolo_decisions_total", ranked)
    durations = ("tavolo_match_duration_seconds_count", ranked)
    ratings = ("tavolo_rating_updates_total", frozenset({("ladder", "muggins-2")}))
    jail_starts = ("tavolo_jail_events_total", frozenset({("event", "start")}))
    before = scrape(url)

    bot = accepted_bot(owner=alice, ladder=muggins_ladder, name="domino")
    house = Bot.objects.get(ladder=muggins_ladder, name="builtin:strong")
    match = match_create(
        ladder=muggins_ladder,
        kind=Match.Kind.RANKED,
        versions=[bot.current_version, house.current_version],
    )
    wait_for(
        lambda: Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED).exists(),
        seconds=120,
        what="the match",
    )
    match.refresh_from_db()
    after = scrape(url)

    assert after[played] == before.get(played, 0) + 1
    assert after[decisions] == before.get(decisions, 0) + match.decisions
    assert after[durations] == before.get(durations, 0) + 1
    assert after[ratings] == before.get(ratings, 0) + 2
    assert after[jail_starts] >= before.get(jail_starts, 0) + 1, "alice's bot runs in the jail"
    lines = [json.loads(line) for line in worker.log.read_text().splitlines() if line[:1] == "{"]
    about = [line for line in lines if line["message"].startswith(f"match {match.pk} played")]
    assert [line["match_id"] for line in about] == [match.pk]


def test_readyz_fails_while_the_broker_is_down_and_recovers_when_it_is_back(
    own_redis: RedisServer,
    start_worker: Callable[..., RunningWorker],
    client: Client,
    wait_for: Callable[..., None],
) -> None:
    with celery_broker(own_redis.url):
        start_worker(REDIS_URL=own_redis.url)
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.json()
        assert ready.json()["checks"]["jail"]["jailed_workers"] == 1

        own_redis.stop()
        down = client.get("/readyz")
        assert down.status_code == 503
        checks = down.json()["checks"]
        assert checks["database"] == {"ok": True}
        assert checks["broker"]["ok"] is False
        assert checks["workers"] == {"ok": False, "answered": 0}

        own_redis.start()
        wait_for(
            lambda: client.get("/readyz").status_code == 200,
            seconds=60,
            what="readiness once the broker is back",
        )
