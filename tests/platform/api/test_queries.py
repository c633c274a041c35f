"""Every list of the API answers in a fixed number of queries, however much it lists."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match
from matches.services import match_create


def queries(client: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(path)
    assert answer.status_code == 200, f"{path}: {answer.status_code} {answer.content[:200]!r}"
    return len(captured)


@pytest.fixture
def grow(
    alice: AbstractUser,
    mia_ladder: Ladder,
    accepted_bot: Callable[..., Bot],
    finish: Callable[..., Match],
) -> Callable[[], Bot]:
    """Add four bots of alice, each with a second (rejected) version and a qualification
    match, and ranked matches between them; from the second call on, a version more of the
    first bot too. Return the first bot."""
    made: list[list[Bot]] = []

    def grow() -> Bot:
        bots = [
            accepted_bot(owner=alice, ladder=mia_ladder, name=f"bot{len(made)}{index}")
            for index in range(4)
        ]
        for bot in bots:
            version = BotVersion.objects.create(
                bot=bot, number=2, sha256="0" * 64, size=1, status="rejected"
            )
            match_create(
                ladder=mia_ladder,
                kind=Match.Kind.QUALIFICATION,
                versions=[version, *(other.current_version for other in bots[1:])],
                enqueue=False,
            )
        finish(bots, [1, 2, 3, 4])
        finish(bots[::-1], [1, 2, 3, 4])
        made.append(bots)
        first = made[0][0]
        if len(made) > 1:  # and a version more of the first bot, with its qualification
            version = BotVersion.objects.create(
                bot=first, number=len(made) + 1, sha256="0" * 64, size=1, status="rejected"
            )
            match_create(
                ladder=mia_ladder,
                kind=Match.Kind.QUALIFICATION,
                versions=[version, *(other.current_version for other in bots[1:])],
                enqueue=False,
            )
        return first

    return grow


PATHS = [
    "/api/bots/",
    "/api/bots/?ladder=mia-classic-4",
    "/api/bots/?owner=alice",
    "/api/bots/{bot}/versions/",
    "/api/bots/{bot}/ratings/",
    "/api/matches/",
    "/api/matches/?bot={bot}",
    "/api/ladders/",
    "/api/ladders/mia-classic-4/standings/",
    "/api/me/",
    "/api/tournaments/",
]


@pytest.mark.parametrize("path", PATHS)
def test_a_list_takes_the_same_queries_with_twice_as_much_in_it(
    alice_api: APIClient, grow: Callable[[], Bot], path: str
) -> None:
    bot = grow()
    first = queries(alice_api, path.format(bot=bot.pk))
    grow()
    grow()
    assert queries(alice_api, path.format(bot=bot.pk)) == first
