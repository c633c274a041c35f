"""Matchmaking: keep every active ladder busy with fair ranked tables.

Run by Celery beat every few seconds (`ladders_schedule`). Each run tops up
each active ladder to `TAVOLO_QUEUE_DEPTH` queued ranked matches, at most the
ladder's `match_rate` and the site's `TAVOLO_MATCHES_PER_MINUTE` per minute, so
matches never pile up faster than workers play them.

Who sits at each table is decided by `arena.matchmaking.beat_tables`, the
same function the rating simulation (`bench/ratings.py`) measures: the
longest-waiting bot seeds each table, newcomers' tables are random, and no
bot is seated twice at once: a bot already in a queued or running ranked
match waits for the next beat. Retired bots are never candidates, and no
table seats two bots of one owner (house bots are the house's, exempt).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.matchmaking import Candidate, beat_tables
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match, MatchSeat
from matches.services import match_create


def ladders_schedule(
    *, now: datetime | None = None, rng: random.Random | None = None
) -> list[Match]:
    """Top up every active ladder with ranked matches; return the new matches."""
    now = now or timezone.now()
    rng = rng or random.Random()
    budget = settings.TAVOLO_MATCHES_PER_MINUTE - _ranked_since(now - timedelta(minutes=1))
    created: list[Match] = []
    for ladder in Ladder.objects.filter(active=True, match_rate__gt=0).order_by("id"):
        if budget <= 0:
            break
        matches = ladder_schedule(ladder=ladder, now=now, rng=rng, limit=budget)
        budget -= len(matches)
        created.extend(matches)
    return created


@transaction.atomic
def ladder_schedule(
    *, ladder: Ladder, now: datetime, rng: random.Random, limit: int
) -> list[Match]:
    """Create up to `limit` ranked matches on one ladder, within its rate and queue depth."""
    Ladder.objects.select_for_update().get(pk=ladder.pk)
    waiting = Match.objects.filter(
        ladder=ladder, kind=Match.Kind.RANKED, status=Match.Status.QUEUED
    ).count()
    recent = _ranked_since(now - timedelta(minutes=1), ladder=ladder)
    count = min(limit, settings.TAVOLO_QUEUE_DEPTH - waiting, ladder.match_rate - recent)
    busy = MatchSeat.objects.filter(
        match__ladder=ladder,
        match__kind=Match.Kind.RANKED,
        match__status__in=(Match.Status.QUEUED, Match.Status.RUNNING),
    ).values("bot_id")
    bots = {
        bot.pk: bot
        for bot in Bot.objects.filter(
            ladder=ladder, current_version__status=BotVersion.Status.ACCEPTED, retired_at=None
        )
        .exclude(id__in=busy)
        .select_related("current_version")
        .order_by("id")
    }
    tables = beat_tables(
        candidates=[_candidate(bot) for bot in bots.values()],
        seats=ladder.seats,
        tables=max(0, count),
        rng=rng,
    )
    created: list[Match] = []
    for index, table in enumerate(tables):
        created.append(
            match_create(
                ladder=ladder,
                kind=Match.Kind.RANKED,
                # Only bots with an accepted current version are candidates.
                versions=[bots[candidate.bot_id].current_version for candidate in table],  # type: ignore[misc]
            )
        )
        seated = {candidate.bot_id for candidate in table}
        Bot.objects.filter(id__in=seated).update(
            last_scheduled_at=now + timedelta(microseconds=index)
        )
    return created


def _candidate(bot: Bot) -> Candidate:
    """What matchmaking needs of a bot: its current version's rating and when it last sat."""
    version = bot.current_version
    assert version is not None, "only bots with an accepted version are candidates"
    last = bot.last_scheduled_at.timestamp() if bot.last_scheduled_at else None
    owner = None if bot.is_house else bot.owner_id
    return Candidate(bot.pk, version.rating, version.games, bot.is_house, last, owner)


def _ranked_since(since: datetime, ladder: Ladder | None = None) -> int:
    matches = Match.objects.filter(kind=Match.Kind.RANKED, created_at__gte=since)
    if ladder is not None:
        matches = matches.filter(ladder=ladder)
    return matches.count()
