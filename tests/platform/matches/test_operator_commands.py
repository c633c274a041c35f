"""The operator's commands: the queue, stuck matches, re-queueing, orphaned files, health."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from pytest_django.fixtures import Settings

from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from matches.services import match_claim, match_create, match_fail


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def new_match(muggins_ladder: Ladder) -> Callable[..., Match]:
    def make(kind: str = Match.Kind.RANKED) -> Match:
        house = Bot.objects.filter(ladder=muggins_ladder).order_by("name")
        versions = [bot.current_version for bot in house]
        return match_create(ladder=muggins_ladder, kind=kind, versions=versions, enqueue=False)

    return make


def test_the_queue_is_counted_by_ladder_and_kind(new_match: Callable[..., Match]) -> None:
    new_match()
    new_match()
    new_match(Match.Kind.CHALLENGE)
    out = run("matches_queue")
    assert "muggins-2" in out
    assert "queued in all: 3" in out
    assert "messages waiting in the broker" in out


def test_stuck_matches_are_listed_and_requeued(
    new_match: Callable[..., Match], settings: Settings, django_capture_on_commit_callbacks: object
) -> None:
    lost, healthy = new_match(), new_match()
    for match in (lost, healthy):
        assert match_claim(match_id=match.pk, worker="w@host")
    long_ago = timezone.now() - timedelta(seconds=settings.TAVOLO_LEASE_SECONDS + 5)
    Match.objects.filter(pk=lost.pk).update(heartbeat_at=long_ago)

    out = run("matches_stuck")
    assert f"match {lost.pk} " in out
    assert f"match {healthy.pk} " not in out
    assert "1 stuck matches" in out

    with django_capture_on_commit_callbacks() as sent:  # type: ignore[operator]
        out = run("match_requeue", str(lost.pk))
    assert f"match {lost.pk} was running: queued again" in out
    assert len(sent) == 1, "sent to the workers on commit"
    lost.refresh_from_db()
    assert (lost.status, lost.claimed_by) == (Match.Status.QUEUED, "")
    assert "0 stuck matches" in run("matches_stuck")


def test_a_failed_match_may_be_requeued_but_not_a_finished_or_qualification_one(
    new_match: Callable[..., Match], finish: Callable[..., Match], muggins_ladder: Ladder
) -> None:
    failed = new_match()
    attempt = match_claim(match_id=failed.pk, worker="w@host")
    assert attempt and match_fail(match_id=failed.pk, attempt=attempt, reason="jail missing")
    assert "was failed: queued again" in run("match_requeue", str(failed.pk))
    failed.refresh_from_db()
    assert (failed.status, failed.failure_reason, failed.finished_at) == ("queued", "", None)

    house = list(Bot.objects.filter(ladder=muggins_ladder).order_by("name"))
    finished = finish(house, [1, 2])
    qualification = new_match(Match.Kind.QUALIFICATION)
    with pytest.raises(CommandError) as refused:
        run("match_requeue", str(finished.pk), str(qualification.pk), "999999")
    message = str(refused.value)
    assert "finished" in message
    assert "qualification" in message
    assert "there is no match 999999" in message


def _store(name: str, *, age_seconds: float) -> str:
    stored = default_storage.save(name, ContentFile(b"x"))
    then = time.time() - age_seconds
    os.utime(Path(default_storage.path(stored)), (then, then))
    return stored


def test_orphaned_replays_and_logs_are_found_and_deleted(
    new_match: Callable[..., Match],
) -> None:
    match = new_match()
    kept = _store(f"replays/muggins-2/{match.pk}.json.gz", age_seconds=7200)
    Match.objects.filter(pk=match.pk).update(replay=kept)
    orphans = [
        _store("replays/muggins-2/424242.json.gz", age_seconds=7200),
        _store("logs/424242/seat-0.txt", age_seconds=7200),
    ]
    young = _store("replays/muggins-2/434343.json.gz", age_seconds=10)

    listed = run("files_orphaned")
    assert all(name in listed for name in orphans)
    assert kept not in listed and young not in listed, "referenced and recent files stay"
    assert all(default_storage.exists(name) for name in orphans), "listing deletes nothing"

    assert "deleted 2 orphaned files" in run("files_orphaned", "--delete")
    assert not any(default_storage.exists(name) for name in orphans)
    assert default_storage.exists(kept) and default_storage.exists(young)


def test_the_health_command_fails_without_a_worker(db: None) -> None:
    with pytest.raises(CommandError, match=r"not ready: .*workers"):
        run("tavolo_health")
