"""How bots fared in their ranked matches: win rates, recent ratings, places, head-to-head.

Every figure counts finished ranked matches only, and each read is one query
for any number of bots, so a ladder's page costs the same with 5 bots or 100.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, F, Max, Q, Window
from django.db.models.functions import RowNumber

from bots.models import Bot
from matches.models import Match, MatchSeat, RatingChange

RECENT_RATINGS = 30
"""Rating points in a standings line's sparkline."""

FREQUENT_OPPONENTS = 8
"""Opponents in a bot's head-to-head table."""


@dataclass(frozen=True)
class BotRecord:
    """A bot's ranked matches: how many, how many won, and the last one's end."""

    played: int = 0
    wins: int = 0
    last_played: datetime | None = None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.played if self.played else None


@dataclass(frozen=True)
class HeadToHead:
    """A bot against one opponent at the same tables: who finished ahead how often."""

    opponent: Bot
    matches: int
    ahead: int
    behind: int

    @property
    def level(self) -> int:
        return self.matches - self.ahead - self.behind


def _ranked_seats() -> Q:
    return Q(match__kind=Match.Kind.RANKED, match__status=Match.Status.FINISHED)


def bot_records(*, bot_ids: Iterable[int]) -> dict[int, BotRecord]:
    """Each bot's ranked record; a bot that has played none is left out.

    A house bot in several seats of one table counts that match once, as won
    if any of its seats won.
    """
    rows = (
        MatchSeat.objects.filter(_ranked_seats(), bot_id__in=list(bot_ids))
        .values("bot_id")
        .annotate(
            played=Count("match_id", distinct=True),
            wins=Count("match_id", filter=Q(place=1), distinct=True),
            last_played=Max("match__finished_at"),
        )
    )
    return {
        row["bot_id"]: BotRecord(row["played"], row["wins"], row["last_played"]) for row in rows
    }


def bot_recent_ratings(
    *, bot_ids: Iterable[int], count: int = RECENT_RATINGS
) -> dict[int, list[float]]:
    """Each bot's last `count` ratings after a ranked match, oldest first."""
    newest_first = Window(RowNumber(), partition_by=F("bot_id"), order_by=[F("id").desc()])
    rows = (
        RatingChange.objects.filter(bot_id__in=list(bot_ids))
        .annotate(recency=newest_first)
        .filter(recency__lte=count)
        .order_by("bot_id", "id")
        .values_list("bot_id", "after")
    )
    ratings: dict[int, list[float]] = {}
    for bot_id, after in rows:
        ratings.setdefault(bot_id, []).append(after)
    return ratings


def bot_places(*, bot: Bot) -> dict[int, int]:
    """How many ranked matches the bot finished in each place, by place (1 first)."""
    rows = (
        MatchSeat.objects.filter(_ranked_seats(), bot=bot, place__isnull=False)
        .values("place")
        .annotate(seats=Count("id"))
        .order_by("place")
    )
    return {row["place"]: row["seats"] for row in rows}


def bot_head_to_head(*, bot: Bot, limit: int = FREQUENT_OPPONENTS) -> list[HeadToHead]:
    """The bot's record against the opponents it met most in ranked matches.

    For each opponent seat at a table where the bot sat: the bot was ahead if
    its place was better (lower), behind if worse.
    """
    rows = list(
        MatchSeat.objects.filter(_ranked_seats(), match__seats__bot=bot)
        .exclude(bot=bot)
        .values("bot_id")
        .annotate(
            matches=Count("id"),
            ahead=Count("id", filter=Q(match__seats__place__lt=F("place"))),
            behind=Count("id", filter=Q(match__seats__place__gt=F("place"))),
        )
        .order_by("-matches", "bot_id")[:limit]
    )
    opponents = Bot.objects.select_related("owner").in_bulk([row["bot_id"] for row in rows])
    return [
        HeadToHead(opponents[row["bot_id"]], row["matches"], row["ahead"], row["behind"])
        for row in rows
    ]
