"""Lost runs: matches whose worker died are re-queued, and nothing is counted twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from pytest_django.fixtures import Settings

from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match, RatingChange
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


@pytest.fixture
def match(muggins_ladder: Ladder) -> Match:
    house = Bot.objects.filter(ladder=muggins_ladder).order_by("name")
    versions = [bot.current_version for bot in house]
    return match_create(
        ladder=muggins_ladder, kind=Match.Kind.RANKED, versions=versions, enqueue=False
    )


def started_long_ago(match: Match, settings: Settings) -> None:
    long_ago = timezone.now() - timedelta(seconds=settings.TAVOLO_LOST_AFTER_SECONDS + 1)
    Match.objects.filter(pk=match.pk).update(started_at=long_ago)


def test_a_match_running_past_the_deadline_is_queued_again_and_sent(
    match: Match, settings: Settings, django_capture_on_commit_callbacks
) -> None:
    match_claim(match_id=match.pk, worker="lost-worker")
    started_long_ago(match, settings)
    with django_capture_on_commit_callbacks() as callbacks:
        assert matches_recover() == [match.pk]
    assert len(callbacks) == 2, "once it commits, the match is sent and counted as re-run"
    match.refresh_from_db()
    assert (match.status, match.claimed_by) == (Match.Status.QUEUED, "")


def test_a_match_running_within_the_deadline_is_left_alone(match: Match) -> None:
    match_claim(match_id=match.pk, worker="busy-worker")
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
