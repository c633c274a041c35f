"""Reads of the ranked ladder: a bot's rating history."""

from __future__ import annotations

from django.db.models import QuerySet

from arena.ratings import Rating
from bots.models import Bot
from ranked.models import RatingChange


def bot_rating_latest(*, bot: Bot, count: int, with_opponents: bool = False) -> list[RatingChange]:
    """The bot's `count` latest rating changes, newest first, with their versions;
    with the seats of each match too when asked (to name the opponents)."""
    changes = bot.rating_changes.select_related("match", "version")
    if with_opponents:
        changes = changes.prefetch_related("match__seats__bot")
    return list(changes.order_by("-created_at", "-id")[:count])


def bot_rating_points(*, bot: Bot, count: int) -> list[tuple[Rating, int]]:
    """The bot's ratings after its `count` latest ranked matches, oldest first, each with
    the number of the version that played: a chart's points, read as plain values."""
    rows = bot.rating_changes.order_by("-created_at", "-id").values_list(
        "after", "deviation_after", "games_before", "version__number"
    )[:count]
    return [
        (Rating(after, deviation, games + 1), number)
        for after, deviation, games, number in reversed(rows)
    ]


def bot_rating_history(*, bot: Bot) -> QuerySet[RatingChange]:
    """The bot's rating changes, oldest first, for a rating chart."""
    return (
        bot.rating_changes.select_related("match", "version")
        .prefetch_related("match__seats__bot")
        .order_by("created_at", "id")
    )
