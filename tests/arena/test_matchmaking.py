"""Matchmaking's choices: full tables, no bot seated twice at once, fair shares and waits."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena import matchmaking
from arena.matchmaking import EXPLORATION_MATCHES, Candidate, beat_tables, table_pick

candidates = st.builds(
    Candidate,
    bot_id=st.integers(1, 10_000),
    rating=st.floats(0, 3000),
    games=st.integers(0, 100),
    house=st.booleans(),
    last_seated=st.one_of(st.none(), st.floats(0, 1e6)),
)
ladders = st.lists(candidates, min_size=1, max_size=40, unique_by=lambda c: c.bot_id)


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
    if distinct >= seats:
        assert not repeated


def test_an_established_bot_meets_near_rivals_more_often_than_far_ones() -> None:
    seed = Candidate(1, 1500.0, EXPLORATION_MATCHES, house=False)
    others = [Candidate(i, 1500.0 + 100 * i, 50, house=False) for i in range(2, 12)]
    rng = random.Random(5)
    met: Counter[int] = Counter()
    for _ in range(2000):
        met.update(c.bot_id for c in table_pick(seed=seed, others=others, seats=2, rng=rng))
    assert met[2] > met[5] > met[11] > 0


def test_a_newcomer_is_never_drawn_for_its_nearness_by_rating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(matchmaking, "RANDOM_SEAT_CHANCE", 0.0)
    seed = Candidate(1, 1500.0, 50, house=False)
    newcomer = Candidate(2, 1500.0, 0, house=False)
    others = [newcomer, *(Candidate(i, 1500.0 + 100 * i, 50, house=False) for i in range(3, 9))]
    for rng_seed in range(50):
        table = table_pick(seed=seed, others=others, seats=4, rng=random.Random(rng_seed))
        assert newcomer not in table


def test_a_new_version_meets_random_tables() -> None:
    seed = Candidate(1, 1500.0, 0, house=False)
    others = [Candidate(i, 1500.0 + 100 * i, 50, house=False) for i in range(2, 12)]
    met = set()
    rng = random.Random(7)
    for _ in range(30):
        met |= {c.bot_id for c in table_pick(seed=seed, others=others, seats=2, rng=rng)}
    assert len(met) > 5, "far-rated bots are met too"


def test_a_newcomer_meets_random_tables_also_when_it_is_not_the_seed() -> None:
    newcomer = 0
    ratings = {bot: 1000.0 + 100 * bot for bot in range(1, 16)} | {newcomer: 1750.0}
    rng = random.Random(3)
    met: Counter[int] = Counter()
    for clock in range(300):
        ladder = [
            Candidate(bot, rating, 0 if bot == newcomer else 50, False, rng.random() * clock)
            for bot, rating in ratings.items()
        ]
        for table in beat_tables(candidates=ladder, seats=4, tables=1, rng=rng):
            seed = min(ladder, key=lambda c: c.last_seated).bot_id
            bots = {c.bot_id for c in table}
            if newcomer in bots and seed != newcomer:
                met.update(bots - {newcomer})
    assert met[1] and met[15], "the newcomer meets the weakest and the strongest"


@given(
    ladder=ladders,
    seats=st.integers(2, 6),
    tables=st.integers(0, 8),
    rng_seed=st.integers(0, 2**32),
)
def test_a_beat_never_seats_a_bot_twice_and_fills_what_it_can(
    ladder: list[Candidate], seats: int, tables: int, rng_seed: int
) -> None:
    made = beat_tables(candidates=ladder, seats=seats, tables=tables, rng=random.Random(rng_seed))
    assert len(made) <= tables
    assert all(len(table) == seats for table in made)
    seated = Counter(c.bot_id for table in made for c in table)
    if len(ladder) >= seats:
        assert all(count == 1 for count in seated.values())
        assert len(made) == min(tables, len(ladder) // seats)
    else:
        assert len(made) <= 1
        assert all(c.house for c in ladder if seated[c.bot_id] > 1)


@given(ladder=ladders, seats=st.integers(2, 6), rng_seed=st.integers(0, 2**32))
def test_the_longest_waiting_bot_seeds_the_first_table(
    ladder: list[Candidate], seats: int, rng_seed: int
) -> None:
    made = beat_tables(candidates=ladder, seats=seats, tables=1, rng=random.Random(rng_seed))
    if not made:
        return
    never = [c for c in ladder if c.last_seated is None]
    if never:
        assert any(c in made[0] for c in never)
    else:
        oldest = min(c.last_seated for c in ladder)
        assert any(c.last_seated == oldest for c in made[0])


@settings(max_examples=5, deadline=None)
@given(
    bots=st.integers(8, 32),
    seats=st.sampled_from([2, 4]),
    per_beat=st.integers(1, 4),
    spread=st.floats(50, 800),
    rng_seed=st.integers(0, 2**32),
)
# A wide field where the bots at its ends, drawn only for their nearness, got 0.83 of a share.
@example(bots=30, seats=4, per_beat=2, spread=747.2316574661111, rng_seed=1401132795)
def test_over_many_beats_every_bot_gets_its_share_and_no_long_wait(
    bots: int, seats: int, per_beat: int, spread: float, rng_seed: int
) -> None:
    rng = random.Random(rng_seed)
    ratings = [1500.0 + rng.gauss(0, spread) for _ in range(bots)]
    house = set(rng.sample(range(bots), 2))
    last: list[float | None] = [None] * bots
    played: list[list[int]] = [[] for _ in range(bots)]
    clock = itertools.count()
    for _ in range(600 * bots // (seats * per_beat)):
        ladder = [Candidate(b, ratings[b], 50, b in house, last[b]) for b in range(bots)]
        for table in beat_tables(candidates=ladder, seats=seats, tables=per_beat, rng=rng):
            now = next(clock)
            for candidate in table:
                last[candidate.bot_id] = now
                played[candidate.bot_id].append(now)
    matches = next(clock)
    fair = matches * seats / bots
    interval = bots / seats
    for games in played:
        assert abs(len(games) / fair - 1) <= 0.15
        assert max(b - a for a, b in itertools.pairwise(games)) <= 2 * interval
    assert sum(len(played[b]) for b in house) <= len(house) * fair * 1.05


owned = st.builds(
    lambda bot_id, rating, games, house, owner: Candidate(
        bot_id, rating, games, house, None, None if house else owner
    ),
    bot_id=st.integers(1, 10_000),
    rating=st.floats(0, 3000),
    games=st.integers(0, 100),
    house=st.booleans(),
    owner=st.integers(1, 4),
)


@given(
    field=st.lists(owned, min_size=1, max_size=30, unique_by=lambda c: c.bot_id),
    seats=st.integers(2, 5),
    rng_seed=st.integers(0, 2**32),
)
def test_no_table_seats_two_bots_of_one_owner(
    field: list[Candidate], seats: int, rng_seed: int
) -> None:
    tables = beat_tables(candidates=field, seats=seats, tables=10, rng=random.Random(rng_seed))
    for table in tables:
        owners = [c.owner for c in table if c.owner is not None]
        assert len(owners) == len(set(owners)), table


def test_a_bot_whose_owner_is_seated_waits_while_others_play() -> None:
    alice = [Candidate(bot_id, 1500.0, 50, False, None, owner=1) for bot_id in (1, 2, 3)]
    others = [Candidate(bot_id, 1500.0, 50, False, None, owner=bot_id) for bot_id in (4, 5)]
    tables = beat_tables(candidates=alice + others, seats=2, tables=5, rng=random.Random(3))
    assert len(tables) == 2
    assert all({c.owner for c in table} != {1} for table in tables)
