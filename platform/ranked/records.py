"""How bots fared in their ranked matches: win rates, recent ratings, places, head-to-head.

Every figure counts finished ranked matches only. They are summed up as each
match finishes (`ranked.tallies`), so each read is one small query for any
number of bots and matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bots.models import Bot
from ranked.models import BotSummary, HeadToHeadSummary
from ranked.tallies import RECENT_RATINGS

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


def bot_records(*, bot_ids: Iterable[int]) -> dict[int, BotRecord]:
    """Each bot's ranked record; a bot that has played none is left out.

    A house bot in several seats of one table counts that match once, as won
    if any of its seats won.
    """
    rows = BotSummary.objects.filter(bot_id__in=list(bot_ids), played__gt=0)
    return {row.bot_id: BotRecord(row.played, row.wins, row.last_played) for row in rows}


def bot_recent_ratings(
    *, bot_ids: Iterable[int], count: int = RECENT_RATINGS
) -> dict[int, list[float]]:
    """Each bot's last `count` (at most `RECENT_RATINGS`) ratings after a ranked match,
    oldest first."""
    rows = BotSummary.objects.filter(bot_id__in=list(bot_ids))
    return {row.bot_id: row.recent_ratings[-count:] for row in rows if row.recent_ratings}


def bot_places(*, bot: Bot) -> dict[int, int]:
    """How many ranked matches the bot finished in each place, by place (1 first)."""
    summary = BotSummary.objects.filter(bot=bot).first()
    places = summary.places if summary is not None else {}
    return {int(place): places[place] for place in sorted(places, key=int)}


def bot_head_to_head(*, bot: Bot, limit: int = FREQUENT_OPPONENTS) -> list[HeadToHead]:
    """The bot's record against the opponents it met most in ranked matches.

    For each opponent seat at a table where the bot sat: the bot was ahead if
    its place was better (lower), behind if worse.
    """
    rows = (
        HeadToHeadSummary.objects.filter(bot=bot)
        .select_related("opponent__owner")
        .order_by("-matches", "opponent_id")[:limit]
    )
    return [HeadToHead(row.opponent, row.matches, row.ahead, row.behind) for row in rows]
