"""Deleting a bot that was never accepted: its qualification matches and files go with it,
nothing else does, and a bot with an accepted version or other matches is refused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError

from bots.models import Bot, BotVersion
from bots.services import bot_version_upload
from ladders.models import Ladder
from matches.models import Match, MatchSeat
from qualification.bot_removal import bot_delete, bot_delete_refusal
from qualification.services import bot_version_qualify
from tests.platform.api.conftest import GOOD_SOURCE


def upload(user: AbstractUser, ladder: Ladder, name: str, new_bot: bool = False) -> BotVersion:
    """A version of a sound bot, pending: uploaded and not yet qualified."""
    return bot_version_upload(
        user=user,
        ladder=ladder,
        bot_name=name,
        source_bytes=GOOD_SOURCE.encode(),
        filename=f"{name}.py",
        new_bot=new_bot,
    )


def test_deleting_a_rejected_bot_removes_its_versions_matches_and_files(
    alice: AbstractUser,
    mia_ladder: Ladder,
    rejected_bot: Callable[..., Bot],
    match_files: Callable[[Bot], list[Path]],
    django_capture_on_commit_callbacks,
) -> None:
    bot = rejected_bot(owner=alice, ladder=mia_ladder)
    files = match_files(bot)
    match_ids = list(Match.objects.filter(seats__bot=bot).values_list("id", flat=True))
    assert match_ids and files and all(path.exists() for path in files)
    assert any("seat-" in path.name for path in files)  # the crash's log is among them

    with django_capture_on_commit_callbacks(execute=True):
        assert sorted(bot_delete(bot=bot)) == sorted(set(match_ids))

    assert not Bot.objects.filter(pk=bot.pk).exists()
    assert not BotVersion.objects.filter(bot_id=bot.pk).exists()
    assert not Match.objects.filter(id__in=match_ids).exists()
    assert not MatchSeat.objects.filter(match_id__in=match_ids).exists()
    assert [path for path in files if path.exists()] == []


def test_nothing_of_other_bots_is_deleted(
    alice: AbstractUser,
    bob: AbstractUser,
    mia_ladder: Ladder,
    rejected_bot: Callable[..., Bot],
    match_files: Callable[[Bot], list[Path]],
    django_capture_on_commit_callbacks,
) -> None:
    kept = rejected_bot(owner=bob, ladder=mia_ladder, name="bobs-crasher")
    kept_files = match_files(kept)
    house = set(Bot.objects.filter(ladder=mia_ladder, kind=Bot.Kind.HOUSE).values_list("id"))
    doomed = rejected_bot(owner=alice, ladder=mia_ladder)

    with django_capture_on_commit_callbacks(execute=True):
        bot_delete(bot=doomed)

    assert set(Bot.objects.filter(kind=Bot.Kind.HOUSE, ladder=mia_ladder).values_list("id")) == (
        house
    )
    assert Match.objects.filter(seats__bot=kept).exists()
    assert kept_files and all(path.exists() for path in kept_files)


def test_the_name_is_free_again(
    alice: AbstractUser,
    bob: AbstractUser,
    mia_ladder: Ladder,
    rejected_bot: Callable[..., Bot],
) -> None:
    bot_delete(bot=rejected_bot(owner=alice, ladder=mia_ladder, name="taken"))
    version = upload(bob, mia_ladder, "taken", new_bot=True)
    assert version.bot.owner == bob


def test_a_bot_with_an_accepted_version_is_refused_and_kept(
    alice: AbstractUser,
    mia_ladder: Ladder,
    accepted_bot: Callable[..., Bot],
) -> None:
    bot = accepted_bot(owner=alice, ladder=mia_ladder, name="champion")
    with pytest.raises(ValidationError, match="retire it instead"):
        bot_delete(bot=bot)
    assert Bot.objects.filter(pk=bot.pk).exists()


def test_a_bot_whose_old_version_was_accepted_is_refused(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable[..., Bot]
) -> None:
    """An accepted version, even superseded by a rejected one, keeps the bot."""
    bot = accepted_bot(owner=alice, ladder=mia_ladder, name="champion")
    BotVersion.objects.create(
        bot=bot, number=2, source="x", sha256="0" * 64, size=1, status="rejected"
    )
    Bot.objects.filter(pk=bot.pk).update(current_version=None)
    bot.refresh_from_db()
    assert "accepted version" in bot_delete_refusal(bot=bot)


def test_a_bot_that_played_ranked_matches_is_refused(
    alice: AbstractUser,
    mia_ladder: Ladder,
    accepted_bot: Callable[..., Bot],
    finish: Callable[..., Match],
) -> None:
    players = [accepted_bot(owner=alice, ladder=mia_ladder, name=f"p{i}") for i in range(4)]
    finish(players, [1, 2, 3, 4])
    # Even with its versions' status rewritten, the ranked match keeps it.
    BotVersion.objects.filter(bot=players[0]).update(status=BotVersion.Status.REJECTED)
    with pytest.raises(ValidationError, match="matches other than its qualification"):
        bot_delete(bot=players[0])
    assert Bot.objects.filter(pk=players[0].pk).exists()


def test_a_qualifying_bot_is_refused(alice: AbstractUser, mia_ladder: Ladder) -> None:
    version = upload(alice, mia_ladder, "busy")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.QUALIFYING)
    with pytest.raises(ValidationError, match="is qualifying"):
        bot_delete(bot=version.bot)


def test_a_house_bot_is_refused(mia_ladder: Ladder) -> None:
    house = Bot.objects.filter(ladder=mia_ladder, kind=Bot.Kind.HOUSE).first()
    assert house is not None
    assert bot_delete_refusal(bot=house) == f"{house.name} is a house bot"


def test_a_pending_version_deleted_before_it_qualified_is_skipped(
    alice: AbstractUser, mia_ladder: Ladder
) -> None:
    version = upload(alice, mia_ladder, "early")
    bot_delete(bot=version.bot)
    assert bot_version_qualify(version_id=version.pk, worker="test-worker") is None
    assert not Match.objects.exists()
