"""Recovery on the real services: results written once the database is back, lost messages
sent again, and only those."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import psycopg
import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connection, transaction
from django.utils import timezone
from pytest_django.fixtures import Settings

from bots.models import Bot
from ladders.models import Ladder
from matches.broker import match_queue_depth
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome
from matches.services import match_create, match_finish_when_written, matches_recover
from ranked.models import RatingChange
from tests.platform.integration.conftest import RedisServer, celery_broker

pytestmark = pytest.mark.postgres


@pytest.fixture
def two_bots(
    alice: AbstractUser, bob: AbstractUser, ladders: dict[str, Ladder], accepted_bot: Callable
) -> list[Bot]:
    ladder = ladders["muggins-2"]
    return [accepted_bot(owner=owner, ladder=ladder, name=owner.username) for owner in (alice, bob)]


def ranked(bots: list[Bot], *, enqueue: bool = False) -> Match:
    with transaction.atomic():
        return match_create(
            ladder=bots[0].ladder,
            kind=Match.Kind.RANKED,
            versions=[bot.current_version for bot in bots],
            enqueue=enqueue,
        )


def terminate_own_connection(postgres_url: str) -> None:
    """End this process's database session from the server's side, as an operator would."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_result_whose_connection_was_terminated_is_written_on_a_new_one(
    two_bots: list[Bot], postgres: str
) -> None:
    match = ranked(two_bots)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, attempts=1)
    outcome = MatchOutcome(
        result={"places": [1, 2]}, seats=[SeatOutcome(1), SeatOutcome(2)], decisions=3
    )
    terminate_own_connection(postgres)
    assert match_finish_when_written(match_id=match.pk, outcome=outcome)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert RatingChange.objects.filter(match=match).count() == 2
    assert not match_finish_when_written(match_id=match.pk, outcome=outcome), "written once"


@pytest.mark.redis
def test_queued_matches_whose_messages_redis_lost_are_sent_again_and_no_others(
    two_bots: list[Bot], redis_broker: str, own_redis: RedisServer, settings: Settings
) -> None:
    lost = [ranked(two_bots, enqueue=True) for _ in range(3)]
    own_redis.stop()
    own_redis.start()  # empty: the three messages are gone
    waiting = ranked(two_bots, enqueue=True)
    earlier = timezone.now() - timedelta(seconds=settings.TAVOLO_RESEND_SECONDS + 1)
    Match.objects.update(queued_at=earlier)
    with transaction.atomic():
        resent = matches_recover()
    assert sorted(resent) == sorted(match.pk for match in lost)
    with transaction.atomic():
        assert matches_recover() == [], "the broker holds a message for every queued match"
    assert waiting.pk not in resent


@pytest.mark.redis
def test_messages_waiting_under_a_key_prefix_are_counted_and_not_sent_again(
    two_bots: list[Bot], own_redis: RedisServer, settings: Settings
) -> None:
    with celery_broker(own_redis.url, key_prefix="tavolo-test:"):
        waiting = [ranked(two_bots, enqueue=True) for _ in range(3)]
        earlier = timezone.now() - timedelta(seconds=settings.TAVOLO_RESEND_SECONDS + 1)
        Match.objects.update(queued_at=earlier)
        assert match_queue_depth() == len(waiting)
        with transaction.atomic():
            assert matches_recover() == []


def worker_sessions(postgres_url: str) -> set[int]:
    """The server processes of the other sessions on the test's database: the worker's."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (own,) = cursor.fetchone()
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), %s)",
            (own,),
        ).fetchall()
    return {pid for (pid,) in rows}


@pytest.mark.redis
@pytest.mark.jail
def test_a_worker_keeps_its_connections_between_matches_and_replaces_those_that_ended(
    two_bots: list[Bot],
    postgres: str,
    start_worker: Callable[..., object],
    wait_for: Callable[..., None],
) -> None:
    start_worker()

    def played() -> Match:
        match = ranked(two_bots, enqueue=True)
        finished = Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED)
        wait_for(finished.exists, seconds=60, what=f"match {match.pk}")
        return finished.get()

    played()
    kept = worker_sessions(postgres)
    for _ in range(3):
        played()
    assert kept and kept <= worker_sessions(postgres), "a connection was closed after a task"
    ended = worker_sessions(postgres)
    with psycopg.connect(postgres, autocommit=True) as admin:
        for pid in ended:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    assert played().attempts == 1, "the worker's next task opened a connection anew"
