"""Retiring a bot: off the standings and the schedule, history kept, and back again."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from pytest_django.fixtures import Settings

from bots.models import Bot
from bots.selectors import ladder_retired_bots, ladder_standings
from bots.services import bot_retire, bot_unretire, bot_version_upload
from ladders.models import Ladder
from matches.challenges import challenge_create
from matches.models import Match, MatchSeat
from ranked.matchmaking import ladder_schedule
from tests.platform.api.conftest import GOOD_SOURCE
from tests.platform.conftest import version_qualify_played


@pytest.fixture
def field(alice: AbstractUser, bob: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable):
    """Eight user bots on the four-seat Mia ladder, the first alice's."""
    return [
        accepted_bot(owner=(alice, bob)[n > 0], ladder=mia_ladder, name=f"bot-{n}", rating=1500 + n)
        for n in range(8)
    ]


def seated_bots(matches: list[Match]) -> set[int]:
    return set(MatchSeat.objects.filter(match__in=matches).values_list("bot_id", flat=True))


def test_retiring_records_when_and_why_and_keeps_the_first_reason(field: list[Bot]) -> None:
    bot = bot_retire(bot=field[0], reason="crashed in each of its last 5 matches")
    assert bot.is_retired and bot.retired_at is not None
    assert bot.retired_reason == "crashed in each of its last 5 matches"
    again = bot_retire(bot=Bot.objects.get(pk=bot.pk), reason="retired by its owner")
    assert again.retired_reason == "crashed in each of its last 5 matches"
    assert again.retired_at == bot.retired_at


def test_a_reason_is_required(field: list[Bot]) -> None:
    with pytest.raises(ValueError, match="reason"):
        bot_retire(bot=field[0], reason="  ")
    assert not Bot.objects.get(pk=field[0].pk).is_retired


def test_a_bot_never_accepted_is_deleted_not_retired(
    alice: AbstractUser, mia_ladder: Ladder
) -> None:
    version = bot_version_upload(
        user=alice,
        ladder=mia_ladder,
        bot_name="new",
        source_bytes=b"def act(o): 0\n",
        filename="n.py",
    )
    with pytest.raises(ValidationError, match="delete it instead"):
        bot_retire(bot=version.bot, reason="retired by its owner")


def test_matchmaking_never_seats_a_retired_bot_and_seats_it_again_once_returned(
    field: list[Bot], mia_ladder: Ladder, settings: Settings
) -> None:
    settings.TAVOLO_QUEUE_DEPTH = 10
    mia_ladder.match_rate = 100
    retired = bot_retire(bot=field[0], reason="retired by its owner")
    now = timezone.now()
    made = ladder_schedule(ladder=mia_ladder, now=now, rng=random.Random(1), limit=10)
    assert made and retired.pk not in seated_bots(made)
    Match.objects.filter(pk__in=[m.pk for m in made]).update(status=Match.Status.FINISHED)

    bot_unretire(bot=retired)
    made = ladder_schedule(ladder=mia_ladder, now=now, rng=random.Random(2), limit=10)
    assert retired.pk in seated_bots(made)


def test_the_standings_leave_out_retired_bots_and_list_them_apart(
    field: list[Bot], mia_ladder: Ladder
) -> None:
    bot_retire(bot=field[7], reason="retired by its owner")
    standings = ladder_standings(ladder=mia_ladder)
    assert field[7].pk not in {line.bot.pk for line in standings}
    assert [line.rank for line in standings] == list(range(1, len(standings) + 1))
    assert list(ladder_retired_bots(ladder=mia_ladder)) == [field[7]]


def test_a_retired_bot_neither_challenges_nor_is_challenged(
    alice: AbstractUser, field: list[Bot], settings: Settings
) -> None:
    bot_retire(bot=field[1], reason="retired by its owner")
    with pytest.raises(ValidationError, match="bot-1 is retired"):
        challenge_create(user=alice, bot=field[0], opponents=[field[1]])
    bot_retire(bot=field[0], reason="retired by its owner")
    with pytest.raises(ValidationError, match="bot-0 is retired"):
        challenge_create(user=alice, bot=field[0], opponents=[field[2]])


def test_a_new_accepted_version_returns_a_retired_bot(
    alice: AbstractUser, field: list[Bot], unjailed: None
) -> None:
    bot = bot_retire(bot=field[0], reason="crashed in each of its last 5 matches")
    version = bot_version_upload(
        user=alice,
        ladder=bot.ladder,
        bot_name=bot.name,
        source_bytes=GOOD_SOURCE.encode(),
        filename="fixed.py",
    )
    qualified = version_qualify_played(version.pk)
    assert qualified is not None and qualified.status == "accepted", qualified
    bot.refresh_from_db()
    assert not bot.is_retired and bot.retired_reason == ""
    assert bot.current_version == qualified
