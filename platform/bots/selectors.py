"""Reads of bots and versions, with the owner-only rules for source and logs."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.http import Http404

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import RatingChange


def bot_list(
    *, ladder: Ladder | None = None, owner: AbstractBaseUser | None = None
) -> QuerySet[Bot]:
    """Bots, by ladder and name, optionally of one ladder or one owner."""
    bots = Bot.objects.select_related("ladder", "owner", "current_version")
    if ladder is not None:
        bots = bots.filter(ladder=ladder)
    if owner is not None:
        bots = bots.filter(owner=owner)
    return bots


def bot_get(*, bot_id: int) -> Bot:
    """One bot, or Http404."""
    bot = bot_list().filter(id=bot_id).first()
    if bot is None:
        raise Http404(f"there is no bot {bot_id}")
    return bot


def bot_version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    """The bot's versions, newest first, without their source."""
    return bot.versions.defer("source", "qualification_log").order_by("-number")


def bot_version_can_inspect(*, user: AbstractBaseUser | AnonymousUser, version: BotVersion) -> bool:
    """True if `user` may read the version's source and logs: its owner, or staff."""
    if not user.is_authenticated:
        return False
    return bool(user.is_staff) or version.bot.owner_id == user.pk


def bot_version_source_for(*, user: AbstractBaseUser | AnonymousUser, version: BotVersion) -> str:
    """The version's source for its owner or staff; Http404 for anyone else."""
    if not bot_version_can_inspect(user=user, version=version):
        raise Http404("no such bot version")
    return version.source


def bot_version_qualification_log_for(
    *, user: AbstractBaseUser | AnonymousUser, version: BotVersion
) -> str:
    """The version's qualification log for its owner or staff; Http404 for anyone else."""
    if not bot_version_can_inspect(user=user, version=version):
        raise Http404("no such bot version")
    return version.qualification_log


def bot_rating_history(*, bot: Bot) -> QuerySet[RatingChange]:
    """The bot's rating changes, oldest first, for a rating chart."""
    return bot.rating_changes.select_related("match", "version").order_by("created_at", "id")
