"""Qualification: new versions play the house bots in the jail and are accepted or rejected."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from pytest_django.fixtures import Settings

from bots.models import Bot, BotVersion
from bots.services import bot_version_upload
from ladders.models import Ladder
from matches.finish import match_finish
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome
from qualification.services import bot_version_qualify, bot_versions_recover

EXAMPLES = Path(__file__).parents[3] / "platform" / "bots" / "examples"


def upload(user: AbstractUser, ladder: Ladder, source: bytes, name: str = "tester") -> BotVersion:
    return bot_version_upload(
        user=user, ladder=ladder, bot_name=name, source_bytes=source, filename=f"{name}.py"
    )


@pytest.fixture
def no_jail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker where bubblewrap cannot make its namespaces."""
    monkeypatch.setattr("matches.playing.jail_available", lambda: False)


@pytest.mark.jail
def test_a_sound_bot_is_accepted_and_becomes_the_current_version(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    muggins_ladder: Ladder,
    settings: Settings,
) -> None:
    version = qualify(upload(alice, muggins_ladder, (EXAMPLES / "muggins_greedy.py").read_bytes()))
    assert version.status == BotVersion.Status.ACCEPTED, version.reason
    assert version.bot.current_version == version
    matches = Match.objects.filter(kind=Match.Kind.QUALIFICATION, seats__bot_version=version)
    assert matches.count() == settings.TAVOLO_QUALIFICATION_MATCHES
    assert all(match.status == Match.Status.FINISHED for match in matches)
    assert f"match {matches[0].pk}" in version.qualification_log


@pytest.mark.jail
@pytest.mark.parametrize(
    ("example", "slug"),
    [
        ("mia_voucher.py", "mia-classic-4"),
        ("mia_voucher.py", "mia-no-guarantee-4"),
        ("muggins_greedy.py", "muggins-4"),
    ],
)
def test_the_shipped_example_bots_qualify(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    ladders: dict[str, Ladder],
    example: str,
    slug: str,
) -> None:
    version = qualify(upload(alice, ladders[slug], (EXAMPLES / example).read_bytes()))
    assert version.status == BotVersion.Status.ACCEPTED, version.reason
    assert "0 infractions" in version.qualification_log


@pytest.mark.jail
def test_a_crashing_bot_is_rejected_with_the_reason_and_its_log(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    mia_ladder: Ladder,
    bot_source: Callable[[str], bytes],
) -> None:
    version = qualify(upload(alice, mia_ladder, bot_source("crashing.py")))
    assert version.status == BotVersion.Status.REJECTED
    assert version.reason.startswith("crashed in qualification match")
    assert "about to crash" in version.qualification_log
    assert Bot.objects.get(pk=version.bot_id).current_version is None


@pytest.mark.jail
def test_a_bot_with_too_many_infractions_is_rejected(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    mia_ladder: Ladder,
    bot_source: Callable[[str], bytes],
) -> None:
    version = qualify(upload(alice, mia_ladder, bot_source("illegal.py")))
    assert version.status == BotVersion.Status.REJECTED
    assert "infractions in qualification; at most 2 are allowed" in version.reason
    first_match = Match.objects.filter(seats__bot_version=version).order_by("id").first()
    count = version.reason.split()[0]
    assert f"illegal x{count}: {{'type': 'fly'}} (decision 1 of match {first_match.pk})" in (
        version.reason
    )


@pytest.mark.jail
def test_a_new_version_starts_from_the_bot_rating_with_a_wider_band_and_no_games(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
) -> None:
    first = qualify(upload(alice, muggins_ladder, bot_source("first_legal.py")))
    BotVersion.objects.filter(pk=first.pk).update(rating=1620.0, deviation=40.0, games=33)
    second = qualify(upload(alice, muggins_ladder, bot_source("first_legal.py") + b"# v2\n"))
    bot = Bot.objects.get(pk=first.bot_id)
    assert second.status == BotVersion.Status.ACCEPTED
    assert bot.current_version == second
    assert (bot.rating, bot.games) == (1620.0, 0)
    assert 40.0 < bot.deviation == second.deviation == second.start_deviation
    assert second.start_rating == 1620.0


@pytest.mark.jail
def test_an_upload_is_qualified_by_the_task_once_it_commits(
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    celery_eager: None,
    django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        version = upload(alice, muggins_ladder, bot_source("first_legal.py"))
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACCEPTED


def test_a_qualified_version_is_not_qualified_again(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
) -> None:
    version = upload(alice, muggins_ladder, bot_source("first_legal.py"))
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.REJECTED)
    assert qualify(version).status == BotVersion.Status.REJECTED
    assert not Match.objects.exists()


def test_a_qualification_the_platform_cannot_play_leaves_the_version_pending(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    unjailed: None,
) -> None:
    version = upload(alice, muggins_ladder, bot_source("first_legal.py"))
    Ladder.objects.filter(pk=muggins_ladder.pk).update(options={"no_such_option": 1})
    version = qualify(version)
    assert version.status == BotVersion.Status.PENDING
    assert "could not be played" in version.reason
    assert "tried again" in version.reason
    assert Match.objects.get().status == Match.Status.FAILED


def test_without_the_jail_a_version_waits_pending_with_the_reason(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    no_jail: None,
) -> None:
    version = qualify(upload(alice, muggins_ladder, bot_source("first_legal.py")))
    assert version.status == BotVersion.Status.PENDING
    assert "waiting for a worker with the jail" in version.reason
    assert not Match.objects.exists()


def test_unjailed_development_mode_runs_bots_with_a_loud_warning(
    qualify: Callable[[BotVersion], BotVersion],
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    no_jail: None,
    unjailed: None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        version = qualify(upload(alice, muggins_ladder, bot_source("first_legal.py")))
    assert version.status == BotVersion.Status.ACCEPTED
    assert "WITHOUT THE JAIL" in caplog.text


def test_lost_and_stale_qualifications_are_sent_again(
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    django_capture_on_commit_callbacks,
) -> None:
    lost = upload(alice, muggins_ladder, bot_source("first_legal.py"), name="lost")
    fresh = upload(alice, muggins_ladder, bot_source("illegal.py"), name="fresh")
    BotVersion.objects.filter(pk=lost.pk).update(
        status=BotVersion.Status.QUALIFYING, qualification_started_at="2000-01-01T00:00Z"
    )
    with django_capture_on_commit_callbacks() as callbacks:
        resent = bot_versions_recover()
    assert resent == [lost.pk]
    assert len(callbacks) == 1
    lost.refresh_from_db()
    assert lost.status == BotVersion.Status.PENDING
    assert fresh.pk not in resent


def test_a_qualification_whose_match_lost_its_lease_is_sent_again_within_seconds(
    alice: AbstractUser, muggins_ladder: Ladder, bot_source: Callable[[str], bytes], settings
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from matches.services import match_claim, match_create

    version = upload(alice, muggins_ladder, bot_source("first_legal.py"))
    house = Bot.objects.filter(ladder=muggins_ladder, kind=Bot.Kind.HOUSE).first()
    assert house is not None and house.current_version is not None
    lease = timedelta(seconds=settings.TAVOLO_LEASE_SECONDS + 1)
    BotVersion.objects.filter(pk=version.pk).update(
        status=BotVersion.Status.QUALIFYING, qualification_started_at=timezone.now() - lease
    )
    match = match_create(
        ladder=muggins_ladder,
        kind=Match.Kind.QUALIFICATION,
        versions=[version, house.current_version],
        enqueue=False,
    )
    match_claim(match_id=match.pk, worker="busy-worker")
    assert bot_versions_recover() == [], "its match holds a live lease"
    Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - lease)
    assert bot_versions_recover() == [version.pk], "its worker stopped renewing the lease"
    version.refresh_from_db()
    assert version.status == BotVersion.Status.PENDING


@pytest.mark.jail
def test_a_rejected_version_names_its_exceptions_by_type_and_keeps_the_message_in_its_log(
    qualify: Callable[[BotVersion], BotVersion], alice: AbstractUser, mia_ladder: Ladder
) -> None:
    raising = b"def act(observation):\n    raise RuntimeError('my-secret-plan-42')\n"
    version = qualify(upload(alice, mia_ladder, raising))
    assert version.status == BotVersion.Status.REJECTED
    assert "raised x" in version.reason and "act raised RuntimeError" in version.reason
    assert "my-secret-plan-42" not in version.reason, "the reason is public"
    assert "my-secret-plan-42" in version.qualification_log, "the owner's log has it"


def finish_unplayed(match: Match, *, infractions: int = 0) -> None:
    """Record `match` as played, every seat first, without playing it."""
    seats = match.seats.count()
    outcome = MatchOutcome(
        result={"places": [1] * seats},
        seats=[SeatOutcome(place=1, infractions=infractions) for _ in range(seats)],
        decisions=1,
    )
    assert match_finish(match_id=match.pk, outcome=outcome)


def qualification_matches(version: BotVersion) -> list[Match]:
    return list(
        Match.objects.filter(kind=Match.Kind.QUALIFICATION, seats__bot_version=version).order_by(
            "id"
        )
    )


def test_a_qualification_sends_one_match_and_the_next_as_each_finishes(
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    unjailed: None,
    settings: Settings,
    django_capture_on_commit_callbacks,
) -> None:
    settings.TAVOLO_QUALIFICATION_MATCHES = 3
    version = upload(alice, muggins_ladder, bot_source("first_legal.py"))
    with django_capture_on_commit_callbacks() as sent:
        started = bot_version_qualify(version_id=version.pk, worker="test-worker")
    assert started is not None and started.status == BotVersion.Status.QUALIFYING
    (first,) = qualification_matches(version)
    assert first.status == Match.Status.QUEUED, "the task plays nothing itself"
    assert len(sent) == 1, "the first match goes to the workers once the start commits"
    for number in range(1, 3):
        finish_unplayed(qualification_matches(version)[-1])
        matches = qualification_matches(version)
        assert len(matches) == number + 1
        assert matches[-1].status == Match.Status.QUEUED
        seat = matches[-1].seats.get(bot_version=version).seat
        assert seat == number % muggins_ladder.seats, "the version changes seat each match"
        version.refresh_from_db()
        assert version.status == BotVersion.Status.QUALIFYING
    finish_unplayed(qualification_matches(version)[-1])
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACCEPTED
    assert len(qualification_matches(version)) == 3, "a judged version gets no further match"


def test_a_match_left_from_an_earlier_qualification_sends_no_next_one(
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    unjailed: None,
) -> None:
    version = upload(alice, muggins_ladder, bot_source("first_legal.py"))
    bot_version_qualify(version_id=version.pk, worker="test-worker")
    (left_over,) = qualification_matches(version)
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.PENDING)
    bot_version_qualify(version_id=version.pk, worker="test-worker")  # it starts again
    assert len(qualification_matches(version)) == 2
    finish_unplayed(left_over, infractions=99)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.QUALIFYING, "its verdict ignores the old match"
    assert len(qualification_matches(version)) == 2


def test_a_qualification_whose_match_waits_in_the_queue_is_not_lost(
    alice: AbstractUser,
    muggins_ladder: Ladder,
    bot_source: Callable[[str], bytes],
    unjailed: None,
    settings: Settings,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    version = upload(alice, muggins_ladder, bot_source("first_legal.py"))
    bot_version_qualify(version_id=version.pk, worker="test-worker")
    later = timezone.now() + timedelta(seconds=settings.TAVOLO_LEASE_SECONDS + 1)
    assert bot_versions_recover(now=later) == []
    version.refresh_from_db()
    assert version.status == BotVersion.Status.QUALIFYING
