"""Reading bots: sources and logs are for their owner and staff only."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser, AnonymousUser
from django.http import Http404

from accounts.services import user_create
from bots.models import Bot
from bots.selectors import (
    bot_get,
    bot_list,
    bot_version_list,
    bot_version_qualification_log_for,
    bot_version_source_for,
)
from ladders.models import Ladder


@pytest.fixture
def alices_bot(alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable) -> Bot:
    bot = accepted_bot(owner=alice, ladder=mia_ladder, name="secretive")
    bot.current_version.qualification_log = "match 1: place 1"
    bot.current_version.save()
    return bot


def test_the_owner_reads_the_source_and_the_qualification_log(
    alice: AbstractUser, alices_bot: Bot
) -> None:
    version = alices_bot.current_version
    assert "# secretive" in bot_version_source_for(user=alice, version=version)
    assert bot_version_qualification_log_for(user=alice, version=version) == "match 1: place 1"


def test_staff_read_any_source(alices_bot: Bot) -> None:
    staff = user_create(username="carol", password="carol-password-1", is_staff=True)
    assert bot_version_source_for(user=staff, version=alices_bot.current_version)


@pytest.mark.parametrize("reader", ["bob", "anonymous"])
def test_anyone_else_is_told_the_version_does_not_exist(
    bob: AbstractUser, alices_bot: Bot, reader: str
) -> None:
    user = bob if reader == "bob" else AnonymousUser()
    with pytest.raises(Http404):
        bot_version_source_for(user=user, version=alices_bot.current_version)
    with pytest.raises(Http404):
        bot_version_qualification_log_for(user=user, version=alices_bot.current_version)


def test_bots_are_listed_by_ladder_and_owner(
    alice: AbstractUser, bob: AbstractUser, ladders: dict, accepted_bot: Callable
) -> None:
    accepted_bot(owner=alice, ladder=ladders["muggins-2"], name="mine")
    accepted_bot(owner=bob, ladder=ladders["muggins-2"], name="theirs")
    assert [bot.name for bot in bot_list(owner=alice)] == ["mine"]
    assert {bot.name for bot in bot_list(ladder=ladders["muggins-2"])} == {
        "mine",
        "theirs",
        "builtin:random",
        "builtin:strong",
    }


def test_an_unknown_bot_is_not_found(db: None) -> None:
    with pytest.raises(Http404):
        bot_get(bot_id=12345)


def test_versions_are_listed_newest_first(alices_bot: Bot) -> None:
    newer = alices_bot.current_version
    newer.pk, newer.number, newer.sha256 = None, 2, "f" * 64
    newer.save()
    assert [version.number for version in bot_version_list(bot=alices_bot)] == [2, 1]
