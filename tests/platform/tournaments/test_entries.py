"""Entering a tournament: who may enter what, when, and what is refused with a reason."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from bots.models import Bot
from bots.services import bot_retire
from ladders.models import Ladder
from tournaments.models import Entry, Tournament
from tournaments.services import tournament_enter, tournament_freeze


def refused(code: str, **kwargs: object) -> str:
    entries = list(Entry.objects.values_list("pk", "bot_id"))
    with pytest.raises(ValidationError) as error:
        tournament_enter(**kwargs)
    assert error.value.code == code
    assert list(Entry.objects.values_list("pk", "bot_id")) == entries
    return error.value.message


def test_an_owner_enters_a_bot_and_its_version_is_not_fixed_before_the_deadline(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    entry = tournament_enter(user=alice, tournament=open_tournament(), bot=muggins_bots[0])
    assert (entry.bot, entry.version, entry.number) == (muggins_bots[0], None, None)


def test_entering_twice_is_refused(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    tournament = open_tournament()
    tournament_enter(user=alice, tournament=tournament, bot=muggins_bots[0])
    message = refused("already_entered", user=alice, tournament=tournament, bot=muggins_bots[0])
    assert "already entered" in message


def test_a_second_bot_of_one_owner_is_refused_and_house_bots_are_not(
    alice: AbstractUser,
    muggins_bots: list[Bot],
    muggins_ladder: Ladder,
    accepted_bot: Callable,
    open_tournament: Callable,
) -> None:
    tournament = open_tournament()
    tournament_enter(user=alice, tournament=tournament, bot=muggins_bots[0])
    second = accepted_bot(owner=alice, ladder=muggins_ladder, name="second-of-alice")
    message = refused("owner_entered", user=alice, tournament=tournament, bot=second)
    assert "first" in message and "one bot of an owner" in message
    house = Bot.objects.filter(ladder=muggins_ladder, kind=Bot.Kind.HOUSE)[:2]
    staff = house[0].owner
    for bot in house:
        tournament_enter(user=staff, tournament=tournament, bot=bot)
    assert Entry.objects.filter(tournament=tournament).count() == 1 + len(house)


def test_a_retired_bot_is_refused(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    bot = bot_retire(bot=muggins_bots[0], reason="retired by its owner")
    message = refused("retired", user=alice, tournament=open_tournament(), bot=bot)
    assert message == f"{bot.name} is retired: return it to its ladder first"


def test_a_bot_of_another_game_is_refused_with_both_ladders_named(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable, open_tournament: Callable
) -> None:
    mia_bot = accepted_bot(owner=alice, ladder=mia_ladder, name="dice")
    message = refused("wrong_game", user=alice, tournament=open_tournament(), bot=mia_bot)
    assert mia_ladder.name in message and "Muggins" in message


def test_entering_after_the_deadline_is_refused(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    tournament = open_tournament()
    late = tournament.entries_close_at + timedelta(seconds=1)
    refused("closed", user=alice, tournament=tournament, bot=muggins_bots[0], now=late)


def test_entering_before_entries_open_is_refused(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    now = timezone.now()
    tournament = open_tournament(entries_open_at=now + timedelta(minutes=30))
    refused("not_open", user=alice, tournament=tournament, bot=muggins_bots[0])


def test_someone_elses_bot_is_refused(
    bob: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    with pytest.raises(PermissionDenied, match="belongs to another user"):
        tournament_enter(user=bob, tournament=open_tournament(), bot=muggins_bots[0])
    assert not Entry.objects.exists()


def test_an_invitation_tournament_takes_only_invited_owners(
    alice: AbstractUser, bob: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    tournament = open_tournament(open_to_all=False)
    tournament.invited.add(bob)
    refused("not_invited", user=alice, tournament=tournament, bot=muggins_bots[0])
    assert tournament_enter(user=bob, tournament=tournament, bot=muggins_bots[1])


def test_at_the_deadline_versions_are_frozen_and_the_field_seeded_by_rating(
    alice: AbstractUser,
    bob: AbstractUser,
    muggins_bots: list[Bot],
    open_tournament: Callable,
    new_version: Callable,
) -> None:
    tournament = open_tournament()
    for bot in reversed(muggins_bots):
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    before = {bot.pk: bot.current_version_id for bot in muggins_bots}
    assert tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    new_version(muggins_bots[0])  # uploaded after the deadline: not the entered version
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    assert [entry.bot for entry in entries] == muggins_bots  # by rating, best first
    assert [entry.version_id for entry in entries] == [before[bot.pk] for bot in muggins_bots]
    assert not tournament_freeze(tournament_id=tournament.pk, now=tournament.starts_at)


def test_a_field_too_small_for_the_format_cancels_the_tournament_with_the_reason(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    tournament = open_tournament()
    tournament_enter(user=alice, tournament=tournament, bot=muggins_bots[0])
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert "1 entrants cannot fill a table of 2 seats" in tournament.cancel_reason


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"format": "swiss"}, "needs a number of rounds"),
        ({"format": "swiss", "rounds": 0}, "rounds must be at least 1"),
        ({"points": [1, 2]}, "must not rise"),
        ({"seed": "xyz"}, "hexadecimal"),
    ],
)
def test_a_tournament_the_format_cannot_run_is_refused_when_created(
    open_tournament: Callable, fields: dict, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        open_tournament(**fields)
    assert not Tournament.objects.exists()


def test_a_knockout_of_four_seat_tables_needs_groups(
    open_tournament: Callable, mia_ladder: Ladder
) -> None:
    with pytest.raises(ValidationError, match="needs groups"):
        open_tournament(ladder=mia_ladder, format="knockout")
    assert open_tournament(ladder=mia_ladder, format="knockout", groups=2)
