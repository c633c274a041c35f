"""Lost runs: matches whose worker died are re-queued, and nothing is counted twice."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from pytest_django.fixtures import Settings

from bots.models import Bot
from ladders.models import Ladder
from matches.lease import LeaseKeeper, lease_lapsed, match_lease_renew
from matches.models import Match, MatchProgress
from matches.playing import MatchOutcome, SeatOutcome
from matches.services import (
    MAX_ATTEMPTS,
    match_claim,
    match_create,
    match_fail,
    match_finish,
    match_run,
    matches_recover,
)
from ranked.models import RatingChange


@pytest.fixture
def match(muggins_ladder: Ladder) -> Match:
    house = Bot.objects.filter(ladder=muggins_ladder).order_by("name")
    versions = [bot.current_version for bot in house]
    return match_create(
        ladder=muggins_ladder, kind=Match.Kind.RANKED, versions=versions, enqueue=False
    )


def started_long_ago(match: Match, settings: Settings) -> None:
    """The match's worker last renewed its lease longer ago than the lease lasts."""
    long_ago = timezone.now() - timedelta(seconds=settings.TAVOLO_LEASE_SECONDS + 1)
    Match.objects.filter(pk=match.pk).update(heartbeat_at=long_ago)


def test_a_match_whose_lease_lapsed_is_queued_again_and_sent(
    match: Match, settings: Settings, django_capture_on_commit_callbacks
) -> None:
    match_claim(match_id=match.pk, worker="lost-worker")
    started_long_ago(match, settings)
    with django_capture_on_commit_callbacks() as callbacks:
        assert matches_recover() == [match.pk]
    assert len(callbacks) == 2, "once it commits, the match is sent and counted as re-run"
    match.refresh_from_db()
    assert (match.status, match.claimed_by) == (Match.Status.QUEUED, "")


def test_a_match_whose_lease_is_renewed_is_left_alone_however_long_it_runs(
    match: Match, settings: Settings
) -> None:
    match_claim(match_id=match.pk, worker="busy-worker")
    long_ago = timezone.now() - timedelta(seconds=settings.TAVOLO_LOST_AFTER_SECONDS + 1)
    Match.objects.filter(pk=match.pk).update(started_at=long_ago)
    assert match_lease_renew(match_id=match.pk, attempt=1)
    assert matches_recover() == []
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING


def test_a_recovered_match_is_played_once_even_if_the_lost_worker_finishes_late(
    match: Match, settings: Settings
) -> None:
    match_claim(match_id=match.pk, worker="lost-worker")
    started_long_ago(match, settings)
    matches_recover()
    assert match_run(match_id=match.pk, worker="new-worker")
    late = MatchOutcome(
        result={"places": [2, 1]}, seats=[SeatOutcome(2), SeatOutcome(1)], decisions=1
    )
    assert not match_finish(match_id=match.pk, outcome=late)
    match.refresh_from_db()
    assert (match.attempts, match.claimed_by) == (2, "new-worker")
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_match_lost_too_often_is_failed(match: Match, settings: Settings) -> None:
    for _ in range(MAX_ATTEMPTS):
        match_claim(match_id=match.pk, worker="unlucky")
        started_long_ago(match, settings)
        matches_recover()
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED
    assert f"{MAX_ATTEMPTS} attempts" in match.failure_reason


def test_a_lost_qualification_match_is_failed_not_requeued(
    match: Match, settings: Settings
) -> None:
    Match.objects.filter(pk=match.pk).update(kind=Match.Kind.QUALIFICATION)
    match_claim(match_id=match.pk, worker="lost-worker")
    started_long_ago(match, settings)
    assert matches_recover() == []
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED


def test_a_queued_match_never_picked_up_is_sent_again(
    match: Match, settings: Settings, django_capture_on_commit_callbacks
) -> None:
    long_ago = timezone.now() - timedelta(seconds=settings.TAVOLO_LOST_AFTER_SECONDS + 1)
    Match.objects.filter(pk=match.pk).update(queued_at=long_ago)
    with django_capture_on_commit_callbacks() as callbacks:
        assert matches_recover() == [match.pk]
    assert len(callbacks) == 1
    assert matches_recover() == [], "sent once per deadline, not at every check"


def test_the_failure_of_a_superseded_run_does_not_touch_the_new_run(
    match: Match, settings: Settings
) -> None:
    first = match_claim(match_id=match.pk, worker="lost-worker")
    started_long_ago(match, settings)
    matches_recover()
    second = match_claim(match_id=match.pk, worker="new-worker")
    assert (first, second) == (1, 2)
    assert not match_fail(match_id=match.pk, attempt=first, reason="stale")
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING


def test_a_lease_is_renewed_only_by_the_run_that_holds_it(match: Match, settings: Settings) -> None:
    first = match_claim(match_id=match.pk, worker="lost-worker")
    started_long_ago(match, settings)
    matches_recover()
    second = match_claim(match_id=match.pk, worker="new-worker")
    assert first is not None and second is not None
    assert not match_lease_renew(match_id=match.pk, attempt=first)
    assert match_lease_renew(match_id=match.pk, attempt=second)


@pytest.mark.django_db(transaction=True)
def test_the_lease_keeper_renews_the_lease_while_the_match_is_played(
    muggins_ladder: Ladder, settings: Settings
) -> None:
    settings.TAVOLO_HEARTBEAT_SECONDS = 0.05
    house = Bot.objects.filter(ladder=muggins_ladder).order_by("name")
    match = match_create(
        ladder=muggins_ladder,
        kind=Match.Kind.RANKED,
        versions=[bot.current_version for bot in house],
        enqueue=False,
    )
    attempt = match_claim(match_id=match.pk, worker="busy-worker")
    assert attempt is not None
    started_long_ago(match, settings)
    with LeaseKeeper(match_id=match.pk, attempt=attempt):
        deadline = time.monotonic() + 5
        while Match.objects.filter(pk=match.pk).filter(
            lease_lapsed(now=timezone.now(), lease_seconds=settings.TAVOLO_LEASE_SECONDS)
        ):
            assert time.monotonic() < deadline, "the lease was never renewed"
            time.sleep(0.02)
    assert matches_recover() == []


def test_live_progress_left_behind_is_deleted_and_the_current_runs_kept(
    muggins_ladder: Ladder,
) -> None:
    """Pieces a worker could not clear (its connection was cut), of a finished match and of
    a run lost with its worker, go; those of the run being played stay."""
    house = Bot.objects.filter(ladder=muggins_ladder).order_by("name")
    versions = [bot.current_version for bot in house]
    finished, running = (
        match_create(
            ladder=muggins_ladder, kind=Match.Kind.RANKED, versions=versions, enqueue=False
        )
        for _ in range(2)
    )
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED, attempts=1)
    Match.objects.filter(pk=running.pk).update(status=Match.Status.RUNNING, attempts=2)
    for match, attempt in ((finished, 1), (running, 1), (running, 2)):
        MatchProgress.objects.create(match=match, attempt=attempt, start=0, events=[])
    matches_recover()
    assert list(MatchProgress.objects.values_list("match_id", "attempt")) == [(running.pk, 2)]
