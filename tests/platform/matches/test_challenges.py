"""Challenges: unranked matches a user starts, checked and rate-limited."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import PermissionDenied, ValidationError
from pytest_django.fixtures import Settings

from bots.models import Bot
from ladders.models import Ladder
from matches.challenges import challenge_create, challenges_left
from matches.models import Match
from ranked.models import RatingChange


@pytest.fixture
def mine(alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable) -> Bot:
    return accepted_bot(owner=alice, ladder=mia_ladder, name="mine")


@pytest.fixture
def theirs(bob: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable) -> Bot:
    return accepted_bot(owner=bob, ladder=mia_ladder, name="theirs")


def refused(code: str, **kwargs: object) -> str:
    matches = Match.objects.count()
    with pytest.raises(ValidationError) as error:
        challenge_create(**kwargs)
    assert error.value.code == code
    assert Match.objects.count() == matches
    return error.value.message


def test_a_challenge_seats_the_bots_and_fills_the_table_with_house_bots(
    alice: AbstractUser, mine: Bot, theirs: Bot, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        match = challenge_create(user=alice, bot=mine, opponents=[theirs])
    assert (match.kind, match.status, match.requested_by) == ("challenge", "queued", alice)
    seated = [seat.bot.name for seat in match.seats.order_by("seat")]
    assert seated[:2] == ["mine", "theirs"]
    assert set(seated[2:]) <= {"builtin:strong", "builtin:random"}
    assert len(callbacks) == 1


@pytest.mark.jail
def test_a_played_challenge_changes_no_rating(
    alice: AbstractUser,
    mine: Bot,
    theirs: Bot,
    celery_eager: None,
    django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_create(user=alice, bot=mine, opponents=[theirs])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.failure_reason
    assert not RatingChange.objects.exists()
    assert [Bot.objects.get(pk=bot.pk).rating for bot in (mine, theirs)] == [1500.0, 1500.0]


def test_house_bots_fill_every_seat_a_challenger_leaves_open(
    alice: AbstractUser, mine: Bot
) -> None:
    match = challenge_create(user=alice, bot=mine, opponents=[])
    seated = [seat.bot.name for seat in match.seats.order_by("seat")]
    assert seated == ["mine", "builtin:strong", "builtin:random", "builtin:strong"]


def test_only_the_owner_can_challenge_with_a_bot(bob: AbstractUser, mine: Bot, theirs: Bot) -> None:
    with pytest.raises(PermissionDenied, match="belongs to another user"):
        challenge_create(user=bob, bot=mine, opponents=[theirs])
    assert not Match.objects.exists()


def test_opponents_must_play_on_the_same_ladder(
    alice: AbstractUser, bob: AbstractUser, mine: Bot, ladders: dict, accepted_bot: Callable
) -> None:
    elsewhere = accepted_bot(owner=bob, ladder=ladders["mia-no-guarantee-4"], name="far")
    message = refused("other_ladder", user=alice, bot=mine, opponents=[elsewhere])
    assert "far" in message


def test_opponents_need_an_accepted_version(
    alice: AbstractUser, bob: AbstractUser, mine: Bot, mia_ladder: Ladder
) -> None:
    fresh = Bot.objects.create(owner=bob, ladder=mia_ladder, name="fresh")
    refused("not_accepted", user=alice, bot=mine, opponents=[fresh])


def test_a_table_holds_at_most_the_ladder_seats(
    alice: AbstractUser, bob: AbstractUser, mine: Bot, mia_ladder: Ladder, accepted_bot: Callable
) -> None:
    others = [accepted_bot(owner=bob, ladder=mia_ladder, name=f"bot-{n}") for n in range(4)]
    refused("too_many_opponents", user=alice, bot=mine, opponents=others)


def test_the_same_bot_cannot_take_two_seats(alice: AbstractUser, mine: Bot, theirs: Bot) -> None:
    refused("repeated_bot", user=alice, bot=mine, opponents=[theirs, theirs])
    refused("repeated_bot", user=alice, bot=mine, opponents=[mine])


def test_challenges_are_limited_per_user_and_hour(
    alice: AbstractUser, bob: AbstractUser, mine: Bot, theirs: Bot, settings: Settings
) -> None:
    settings.TAVOLO_CHALLENGES_PER_HOUR = 3
    for _ in range(3):
        challenge_create(user=alice, bot=mine, opponents=[theirs])
    assert challenges_left(user=alice) == 0
    message = refused("rate_limited", user=alice, bot=mine, opponents=[theirs])
    assert "3 challenges an hour" in message
    assert challenge_create(user=bob, bot=theirs, opponents=[mine]).requested_by == bob
