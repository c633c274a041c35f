"""Matchmaking: busy ladders without a pile-up, no starving bot, fair tables."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from pytest_django.fixtures import Settings

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.matchmaking import (
    EXPLORATION_MATCHES,
    Candidate,
    ladder_schedule,
    ladders_schedule,
    table_pick,
)
from matches.models import Match


def seated(match: Match) -> list[str]:
    return [seat.bot.name for seat in match.seats.order_by("seat")]


def play_out(matches: list[Match]) -> None:
    """Take the matches off the queue, as workers would."""
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(status=Match.Status.FINISHED)


candidates = st.builds(
    Candidate,
    bot_id=st.integers(1, 10_000),
    rating=st.floats(0, 3000),
    games=st.integers(0, 100),
    house=st.booleans(),
)


@given(
    seed=candidates,
    others=st.lists(candidates, max_size=12, unique_by=lambda c: c.bot_id),
    seats=st.integers(2, 6),
    rng_seed=st.integers(0, 2**32),
)
def test_a_table_is_full_holds_its_seed_and_repeats_only_house_bots(
    seed: Candidate, others: list[Candidate], seats: int, rng_seed: int
) -> None:
    table = table_pick(seed=seed, others=others, seats=seats, rng=random.Random(rng_seed))
    houses = [c for c in (seed, *others) if c.house and (c is seed or c.bot_id != seed.bot_id)]
    distinct = len({c.bot_id for c in (seed, *others)})
    if distinct < seats and not houses:
        assert table is None
        return
    assert table is not None
    assert len(table) == seats
    assert seed in table
    repeated = [bot_id for bot_id, n in Counter(c.bot_id for c in table).items() if n > 1]
    assert all(c.house for c in table if c.bot_id in repeated)


def test_an_established_bot_meets_its_nearest_rivals_by_rating() -> None:
    seed = Candidate(1, 1500.0, EXPLORATION_MATCHES, house=False)
    others = [Candidate(i, 1500.0 + 100 * i, 50, house=False) for i in range(2, 12)]

    class NeverRandom(random.Random):
        def random(self) -> float:
            return 0.99

    table = table_pick(seed=seed, others=others, seats=3, rng=NeverRandom(0))
    assert sorted(c.bot_id for c in table) == [1, 2, 3]


def test_a_new_version_meets_random_tables() -> None:
    seed = Candidate(1, 1500.0, 0, house=False)
    others = [Candidate(i, 1500.0 + 100 * i, 50, house=False) for i in range(2, 12)]
    met = set()
    rng = random.Random(7)
    for _ in range(30):
        met |= {c.bot_id for c in table_pick(seed=seed, others=others, seats=2, rng=rng)}
    assert len(met) > 5, "far-rated bots are met too"


@pytest.fixture
def crowd(alice: AbstractUser, bob: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable):
    return [
        accepted_bot(owner=(alice, bob)[n % 2], ladder=mia_ladder, name=f"bot-{n}", games=n * 7)
        for n in range(10)
    ]


def test_the_ladders_are_topped_up_to_the_queue_depth_and_no_further(
    ladders: dict, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 2
    first = ladders_schedule(rng=random.Random(1))
    assert Counter(m.ladder.slug for m in first) == {slug: 2 for slug in ladders}
    assert ladders_schedule(rng=random.Random(2)) == []
    play_out(first[:1])
    again = ladders_schedule(rng=random.Random(3))
    assert [m.ladder for m in again] == [first[0].ladder]


def test_a_ladder_schedules_no_more_than_its_rate_per_minute(
    mia_ladder: Ladder, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 100
    Ladder.objects.filter(pk=mia_ladder.pk).update(match_rate=3)
    mia_ladder.refresh_from_db()
    rng = random.Random(1)
    assert len(ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=100)) == 3
    assert ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=rng, limit=100) == []


def test_the_site_wide_rate_caps_all_ladders_together(ladders: dict, settings: Settings) -> None:
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
    mia_ladder: Ladder, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        made = ladder_schedule(ladder=mia_ladder, now=timezone.now(), rng=random.Random(1), limit=2)
    assert len(callbacks) == len(made) == 2
