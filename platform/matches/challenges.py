"""Challenges: an unranked match a user starts between a bot of theirs and chosen opponents.

At most `TAVOLO_CHALLENGES_PER_HOUR` a user; house bots fill the empty seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from bots.models import Bot
from bots.selectors import bot_owner_check
from matches.models import Match
from matches.services import match_create


def challenges_in_last_hour(*, user: User) -> int:
    """How many challenges `user` started in the past hour (the rate limit's count)."""
    since = timezone.now() - timedelta(hours=1)
    return Match.objects.filter(
        kind=Match.Kind.CHALLENGE, requested_by=user, created_at__gte=since
    ).count()


def challenges_left(*, user: User) -> int:
    """How many more challenges `user` may start now."""
    return max(0, settings.TAVOLO_CHALLENGES_PER_HOUR - challenges_in_last_hour(user=user))


def challenge_check(*, user: User, bot: Bot, opponents: Sequence[Bot]) -> None:
    """Refuse a challenge that may not be played, with the reason (PermissionDenied if
    `bot` is not the user's, else ValidationError)."""
    bot_owner_check(user=user, bot=bot)
    ladder = bot.ladder
    if not ladder.active:
        raise ValidationError(f"the ladder {ladder.name} is closed", code="ladder_inactive")
    if len(opponents) > ladder.seats - 1:
        raise ValidationError(
            f"{ladder.name} seats {ladder.seats} bots: choose at most {ladder.seats - 1} opponents",
            code="too_many_opponents",
        )
    if len({opponent.pk for opponent in opponents}) != len(opponents) or any(
        opponent.pk == bot.pk for opponent in opponents
    ):
        raise ValidationError("each opponent must be another bot, once", code="repeated_bot")
    for candidate in (bot, *opponents):
        if candidate.ladder_id != ladder.pk:
            raise ValidationError(f"{candidate.name} plays on another ladder", code="other_ladder")
        if candidate.current_version_id is None:
            raise ValidationError(
                f"{candidate.name} has no accepted version yet", code="not_accepted"
            )
        if candidate.is_retired:
            raise ValidationError(f"{candidate.name} is retired", code="retired")


def challenge_create(*, user: User, bot: Bot, opponents: Sequence[Bot]) -> Match:
    """An unranked match of `bot` against chosen opponents; house bots fill empty seats.

    At most `TAVOLO_CHALLENGES_PER_HOUR` per user: the user's row is locked
    while counting, so two requests at once cannot both take the last one.
    """
    challenge_check(user=user, bot=bot, opponents=opponents)
    with transaction.atomic():
        get_user_model().objects.select_for_update().get(pk=user.pk)
        limit = settings.TAVOLO_CHALLENGES_PER_HOUR
        if challenges_in_last_hour(user=user) >= limit:
            raise ValidationError(
                f"you may start {limit} challenges an hour; try again later", code="rate_limited"
            )
        seated = [bot, *opponents]
        house = list(
            Bot.objects.filter(
                ladder=bot.ladder,
                kind=Bot.Kind.HOUSE,
                current_version__isnull=False,
                retired_at=None,
            ).order_by("-name")
        )
        if len(seated) < bot.ladder.seats and not house:
            raise ValidationError(
                "this ladder has no house bots to fill the table", code="no_house"
            )
        while len(seated) < bot.ladder.seats:
            seated.append(house[(len(seated) - 1 - len(opponents)) % len(house)])
        return match_create(
            ladder=bot.ladder,
            kind=Match.Kind.CHALLENGE,
            # challenge_check and the query above keep only bots with a current version.
            versions=[candidate.current_version for candidate in seated],  # type: ignore[misc]
            requested_by=user,
        )
