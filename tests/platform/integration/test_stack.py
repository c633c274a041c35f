"""The whole platform on real services: upload, qualification, ranked matches, standings."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser

from arena.replay import loads_replay, verify_replay
from bots.models import Bot, BotVersion
from bots.selectors import ladder_standings
from bots.services import bot_version_upload
from ladders.models import Ladder
from matches.models import Match
from matches.selectors import match_replay_bytes
from ranked.matchmaking import ladders_schedule
from ranked.models import RatingChange

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.jail]

EXAMPLES = Path(__file__).parents[3] / "platform" / "bots" / "examples"


def test_an_uploaded_bot_qualifies_plays_ranked_matches_and_climbs_the_standings(
    alice: AbstractUser,
    ladders: dict[str, Ladder],
    worker: object,
    wait_for: Callable[..., None],
) -> None:
    ladder = ladders["muggins-2"]
    Ladder.objects.exclude(pk=ladder.pk).update(active=False)
    version = bot_version_upload(
        user=alice,
        ladder=ladder,
        bot_name="greedy",
        source_bytes=(EXAMPLES / "muggins_greedy.py").read_bytes(),
        filename="muggins_greedy.py",
    )

    def decided() -> bool:
        version.refresh_from_db()
        return version.status in (BotVersion.Status.ACCEPTED, BotVersion.Status.REJECTED)

    wait_for(decided, seconds=120, what="the qualification")
    assert version.status == BotVersion.Status.ACCEPTED, version.reason
    bot = Bot.objects.get(pk=version.bot_id)
    assert bot.current_version == version

    scheduled = ladders_schedule(rng=random.Random(4))
    assert scheduled
    assert {match.ladder for match in scheduled} == {ladder}
    wait_for(
        lambda: (
            not Match.objects.filter(
                pk__in=[m.pk for m in scheduled], status__in=["queued", "running"]
            ).exists()
        ),
        seconds=120,
        what="the ranked matches",
    )
    for match in Match.objects.filter(pk__in=[m.pk for m in scheduled]):
        assert match.status == Match.Status.FINISHED, match.failure_reason
        verify_replay(loads_replay(match_replay_bytes(match=match)))
        assert RatingChange.objects.filter(match=match).count() == len(
            {seat.bot_id for seat in match.seats.all()}
        )

    standings = ladder_standings(ladder=ladder)
    assert sum(line.games for line in standings) >= len(scheduled)
    assert any(line.rating != 1500.0 for line in standings)
    assert [line.rank for line in standings] == list(range(1, len(standings) + 1))
    ratings = [line.rating for line in standings]
    assert ratings == sorted(ratings, reverse=True)
