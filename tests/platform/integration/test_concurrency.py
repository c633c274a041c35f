"""Results delivered twice from many threads at once are each counted exactly once."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connections

from bots.models import Bot
from ladders.models import Ladder
from matches.finish import match_finish
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome
from matches.services import match_create
from ranked.models import RatingChange, VersionRecord

pytestmark = pytest.mark.postgres

MATCHES = 500
THREADS = 8


def test_eight_threads_finishing_500_matches_twice_count_each_once_in_history_and_records(
    alice: AbstractUser, bob: AbstractUser, ladders: dict[str, Ladder], accepted_bot: Callable
) -> None:
    ladder = ladders["muggins-4"]
    for number in range(6):
        accepted_bot(owner=(alice, bob)[number % 2], ladder=ladder, name=f"bot-{number}")
    versions = [bot.current_version for bot in Bot.objects.filter(ladder=ladder)]
    rng = random.Random(2024)
    deliveries = []
    for _ in range(MATCHES):
        table = rng.sample(versions, ladder.seats)
        match = match_create(ladder=ladder, kind=Match.Kind.RANKED, versions=table, enqueue=False)
        places = [rng.randint(1, ladder.seats) for _ in table]
        outcome = MatchOutcome(
            result={"places": places}, seats=[SeatOutcome(place=p) for p in places], decisions=1
        )
        deliveries += [(match.pk, outcome), (match.pk, outcome)]
    rng.shuffle(deliveries)

    def deliver(delivery: tuple[int, MatchOutcome]) -> bool:
        try:
            return match_finish(match_id=delivery[0], outcome=delivery[1])
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        recorded = list(pool.map(deliver, deliveries))

    assert recorded.count(True) == MATCHES
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == MATCHES
    history = Counter(RatingChange.objects.values_list("match_id", "bot_id"))
    assert len(history) == MATCHES * ladder.seats
    assert set(history.values()) == {1}
    for bot in Bot.objects.filter(ladder=ladder):
        changes = RatingChange.objects.filter(bot=bot)
        assert bot.games == changes.count()
        drift = sum(change.after - change.before for change in changes)
        assert bot.rating == pytest.approx(1500.0 + drift)
    records = {
        (row.version_id, row.opponent_id): (row.games, row.points)
        for row in VersionRecord.objects.all()
    }
    for bot in Bot.objects.filter(ladder=ladder):
        own = [
            games
            for (version, _), (games, _) in records.items()
            if version == bot.current_version_id
        ]
        assert sum(own) == bot.games * (ladder.seats - 1)
    for (version, opponent), (games, points) in records.items():
        assert records[opponent, version] == (games, pytest.approx(games - points))
