"""The collusion report finds a pair that wins together past its ratings, and no honest pair."""

from __future__ import annotations

import random
from collections.abc import Callable
from io import StringIO

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.management import call_command
from django.test import Client

from accounts.services import user_create
from bots.models import Bot
from ladders.models import Ladder
from ranked.collusion import Seat, pair_results, suspicious_pairs


@pytest.fixture
def field(mia_ladder: Ladder, accepted_bot: Callable[..., Bot]) -> list[Bot]:
    """Eight bots of eight owners on a four-seat ladder, equal at the start."""
    owners = [
        user_create(username=f"player-{n}", password=f"horse-battery-{n}-staple") for n in range(8)
    ]
    return [
        accepted_bot(owner=owner, ladder=mia_ladder, name=f"bot-{n}")
        for n, owner in enumerate(owners)
    ]


def play_ladder(field: list[Bot], finish: Callable, colluders: set[int], matches: int) -> None:
    """Ranked tables of four drawn at random; places at random, except that the colluders,
    when both seated, take the first two places nine times in ten."""
    rng = random.Random(7)
    for _ in range(matches):
        table = rng.sample(field, 4)
        order = list(table)
        rng.shuffle(order)
        together = [bot for bot in order if bot.pk in colluders]
        if len(together) == 2 and rng.random() < 0.9:
            order = together + [bot for bot in order if bot.pk not in colluders]
        places = [order.index(bot) + 1 for bot in table]
        finish(table, places)


def test_a_colluding_pair_is_flagged_and_no_honest_pair_is(
    field: list[Bot], finish: Callable, mia_ladder: Ladder
) -> None:
    colluders = {field[2].pk, field[5].pk}
    play_ladder(field, finish, colluders, matches=240)
    flagged = suspicious_pairs(ladder=mia_ladder)
    assert [(pair.first, pair.second) for pair in flagged] == [tuple(sorted(colluders))]
    assert flagged[0].tables >= 20 and flagged[0].excess > 0


def test_an_honest_ladder_flags_no_pair(
    field: list[Bot], finish: Callable, mia_ladder: Ladder
) -> None:
    play_ladder(field, finish, set(), matches=240)
    assert suspicious_pairs(ladder=mia_ladder) == []
    out = StringIO()
    call_command("collusion_report", stdout=out)
    assert out.getvalue() == "no pair departs from its ratings\n"


def test_the_command_and_the_admin_page_name_the_pair_and_its_owners(
    field: list[Bot], finish: Callable, alice: AbstractUser
) -> None:
    play_ladder(field, finish, {field[0].pk, field[1].pk}, matches=240)
    out = StringIO()
    call_command("collusion_report", "--ladder", field[0].ladder.slug, stdout=out)
    assert "bot-0 (player-0) and bot-1 (player-1)" in out.getvalue()
    alice.is_staff = alice.is_superuser = True
    alice.save()
    browser = Client()
    browser.force_login(alice)
    html = browser.get("/admin/ranked/ratingchange/collusion/").content.decode()
    assert "<td>bot-0</td><td>player-0</td><td>bot-1</td><td>player-1</td>" in html


def test_a_stronger_bot_winning_as_its_rating_says_is_no_excess() -> None:
    rng = random.Random(1)
    tables = []
    for _ in range(400):
        ratings = {1: 1900.0, 2: 1500.0, 3: 1500.0}
        weak = [2, 3]
        rng.shuffle(weak)
        # 1900 against 1500 is an expected 0.909 a pair: first, or last, but never between
        order = [1, *weak] if rng.random() < 0.909 else [*weak, 1]
        tables.append([Seat(bot, ratings[bot], order.index(bot) + 1) for bot in ratings])
    by_pair = {(r.first, r.second): r for r in pair_results(tables)}
    assert abs(by_pair[(1, 3)].z) < 3
