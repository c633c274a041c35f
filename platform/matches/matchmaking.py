"""Matchmaking: keep every active ladder busy with fair ranked tables.

Run by Celery beat every few seconds (`ladders_schedule`). Each run tops up
each active ladder to `TAVOLO_QUEUE_DEPTH` queued ranked matches, at most the
ladder's `match_rate` and the site's `TAVOLO_MATCHES_PER_MINUTE` per minute, so
matches never pile up faster than workers play them.

A table is built around a *seed*: the accepted bot seated least recently, so
no bot starves. A version's first `EXPLORATION_MATCHES` matches are at random
tables, to place it quickly; after that its opponents are its nearest by
rating, with each seat drawn at random with chance `RANDOM_SEAT_CHANCE`, so
neighbourhoods keep mixing. When a ladder has fewer bots than seats, house
bots fill the rest (a house bot may then hold several seats).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match
from matches.services import match_create

EXPLORATION_MATCHES = 10
RANDOM_SEAT_CHANCE = 0.25


@dataclass(frozen=True)
class Candidate:
    """What matchmaking knows of a bot."""

    bot_id: int
    rating: float
    games: int
    house: bool


def table_pick(
    *, seed: Candidate, others: Sequence[Candidate], seats: int, rng: random.Random
) -> list[Candidate] | None:
    """The seed and its opponents in seating order, or None if the table cannot be filled.

    A candidate in `others` with the seed's bot id is the seed itself, and is ignored.
    """
    rivals = [candidate for candidate in others if candidate.bot_id != seed.bot_id]
    pool = list(rivals)
    table = [seed]
    while len(table) < seats and pool:
        if seed.games < EXPLORATION_MATCHES or rng.random() < RANDOM_SEAT_CHANCE:
            pick = rng.choice(pool)
        else:
            pick = min(pool, key=lambda c: (abs(c.rating - seed.rating), c.bot_id))
        pool.remove(pick)
        table.append(pick)
    house = [candidate for candidate in (seed, *rivals) if candidate.house]
    if len(table) < seats and not house:
        return None
    while len(table) < seats:
        table.append(rng.choice(house))
    rng.shuffle(table)
    return table


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
    bots = list(
        Bot.objects.filter(ladder=ladder, current_version__status=BotVersion.Status.ACCEPTED)
        .select_related("current_version")
        .order_by("id")
    )
    created: list[Match] = []
    if not bots:
        return created
    by_id = {bot.pk: bot for bot in bots}
    candidates = [Candidate(bot.pk, bot.rating, bot.games, bot.is_house) for bot in bots]
    for index in range(max(0, count)):
        seed = min(bots, key=_least_recently_scheduled)
        table = table_pick(
            seed=next(c for c in candidates if c.bot_id == seed.pk),
            others=candidates,
            seats=ladder.seats,
            rng=rng,
        )
        if table is None:
            break
        created.append(
            match_create(
                ladder=ladder,
                kind=Match.Kind.RANKED,
                versions=[by_id[candidate.bot_id].current_version for candidate in table],
            )
        )
        seated_at = now + timedelta(microseconds=index)
        seated = {candidate.bot_id for candidate in table}
        for bot in bots:
            if bot.pk in seated:
                bot.last_scheduled_at = seated_at
        Bot.objects.filter(id__in=seated).update(last_scheduled_at=seated_at)
    return created


def _least_recently_scheduled(bot: Bot) -> tuple[float, int]:
    """Never-seated bots first, then the longest waiting; ties by age."""
    if bot.last_scheduled_at is None:
        return (float("-inf"), bot.pk)
    return (bot.last_scheduled_at.timestamp(), bot.pk)


def _ranked_since(since: datetime, ladder: Ladder | None = None) -> int:
    matches = Match.objects.filter(kind=Match.Kind.RANKED, created_at__gte=since)
    if ladder is not None:
        matches = matches.filter(ladder=ladder)
    return matches.count()
