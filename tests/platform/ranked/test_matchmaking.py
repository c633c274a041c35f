"""Matchmaking: busy ladders without a pile-up, no starving bot, fair tables."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.services import user_create
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match
from ranked.matchmaking import ladder_schedule, ladders_schedule


def seated(match: Match) -> list[str]:
    return [seat.bot.name for seat in match.seats.order_by("seat")]


def play_out(matches: list[Match]) -> None:
    """Take the matches off the queue, as workers would."""
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(status=Match.Status.FINISHED)


@pytest.fixture
def crowd(mia_ladder: Ladder, accepted_bot: Callable):
    return [
        accepted_bot(owner=owner(n), ladder=mia_ladder, name=f"bot-{n}", games=n * 7)
        for n in range(10)
    ]


def owner(n: int) -> AbstractUser:
    return user_create(username=f"crowd-{n}", password=f"crowd-{n}-password")


def test_no_ranked_table_seats_two_bots_of_one_owner(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 3
    mine = {accepted_bot(owner=alice, ladder=mia_ladder, name=f"alice-{n}").pk for n in range(4)}
    for n in range(4):
        accepted_bot(owner=owner(n), ladder=mia_ladder, name=f"other-{n}")
    tables = 0
    for beat in range(12):
        made = ladder_schedule(
            ladder=mia_ladder, now=timezone.now(), rng=random.Random(beat), limit=3
        )
        for match in made:
            assert len(mine & {seat.bot_id for seat in match.seats.all()}) <= 1
        tables += len(made)
        play_out(made)
    assert tables >= 12


@pytest.fixture
def crowds(ladders: dict, accepted_bot: Callable) -> dict:
    """Twelve user bots of twelve owners on every ladder: enough for several tables at once."""
    owners = [owner(n) for n in range(12)]
    for ladder in ladders.values():
        for n, user in enumerate(owners):
            accepted_bot(owner=user, ladder=ladder, name=f"bot-{n}")
    return ladders


def test_the_ladders_are_topped_up_to_the_queue_depth_and_no_further(
    crowds: dict, settings: Settings
) -> None:
    ladders = crowds
    settings.TAVOLO_QUEUE_DEPTH = 2
    first = ladders_schedule(rng=random.Random(1))
    assert Counter(m.ladder.slug for m in first) == {slug: 2 for slug in ladders}
    assert ladders_schedule(rng=random.Random(2)) == []
    play_out(first[:1])
    again = ladders_schedule(rng=random.Random(3))
    assert [m.ladder for m in again] == [first[0].ladder]


def test_a_ladder_schedules_no_more_than_its_rate_per_minute(
    crowd: list[Bot], mia_ladder: Ladder, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 100
    Ladder.objects.filter(pk=mia_ladder.pk).update(match_rate=3)
    mia_ladder.refresh_from_db()
    rng = random.Random(1)
    assert len(ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=100)) == 3
    assert ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=100) == []


def test_the_site_wide_rate_caps_all_ladders_together(crowds: dict, settings: Settings) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 100
    settings.TAVOLO_MATCHES_PER_MINUTE = 5
    assert len(ladders_schedule(rng=random.Random(1))) == 5
    assert ladders_schedule(rng=random.Random(1)) == []


def test_paused_and_inactive_ladders_get_no_matches(ladders: dict) -> None:
    Ladder.objects.filter(slug="muggins-2").update(match_rate=0)
    Ladder.objects.filter(slug="muggins-4").update(active=False)
    slugs = {m.ladder.slug for m in ladders_schedule(rng=random.Random(1))}
    assert slugs == {"mia-classic-4", "mia-no-guarantee-4"}


def test_no_bot_starves_every_bot_seeds_a_table_in_turn(
    crowd: list[Bot], mia_ladder: Ladder, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 1
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    bots = len(crowd) + 2
    for _ in range(bots):
        made = ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=1)
        seen.update(set(seated(made[0])))
        play_out(made)
        Match.objects.all().delete()  # keep the per-minute rate out of the way
    assert set(seen) == {bot.name for bot in crowd} | {"builtin:random", "builtin:strong"}


def test_house_bots_fill_a_ladder_with_a_single_user_bot(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable
) -> None:
    accepted_bot(owner=alice, ladder=mia_ladder, name="lonely")
    tables = ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=random.Random(3), limit=2)
    assert tables
    for match in tables:
        names = seated(match)
        assert len(names) == 4
        assert set(names) <= {"lonely", "builtin:random", "builtin:strong"}


def test_only_accepted_versions_are_scheduled(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 10
    rejected = accepted_bot(owner=alice, ladder=mia_ladder, name="rejected")
    BotVersion.objects.filter(bot=rejected).update(status=BotVersion.Status.REJECTED)
    Bot.objects.create(owner=alice, ladder=mia_ladder, name="pending")
    matches = ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=random.Random(1), limit=10)
    names = {name for match in matches for name in seated(match)}
    assert names == {"builtin:random", "builtin:strong"}


def test_new_matches_are_sent_to_the_workers_on_commit(
    crowd: list[Bot], mia_ladder: Ladder, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        made = ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=random.Random(1), limit=2)
    assert len(callbacks) == len(made) == 2


def test_a_bot_in_a_queued_or_running_ranked_match_is_not_seated_again(
    crowd: list[Bot], mia_ladder: Ladder, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 100
    rng = random.Random(4)
    first = ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=100)
    assert len(first) == 3  # twelve bots, four seats
    Match.objects.filter(pk=first[0].pk).update(status=Match.Status.RUNNING)
    assert ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=100) == []
    play_out(first)
    again = ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=100)
    names = [name for match in first + again for name in seated(match)]
    assert Counter(names[:12]) == Counter(names[12:]) == Counter(set(names))
