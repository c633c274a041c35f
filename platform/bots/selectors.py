"""Reads of bots and versions, with the owner-only rules for source and logs, and standings."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from ladders.ratings import rating_shown


@dataclass(frozen=True)
class Standing:
    """One line of a ladder's table."""

    rank: int
    bot: Bot
    owner: str
    version: int
    rating: float
    band: float
    games: int
    provisional: bool
    house: bool


def bot_list(*, ladder: Ladder | None = None, owner: User | None = None) -> QuerySet[Bot]:
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


def bot_version_get(*, bot: Bot, number: int) -> BotVersion:
    """The bot's version `number` (with its source), or Http404."""
    version = bot.versions.select_related("bot").filter(number=number).first()
    if version is None:
        raise Http404(f"{bot.name} has no version {number}")
    return version


def bot_owner_check(*, user: User | AnonymousUser, bot: Bot) -> None:
    """Refuse (PermissionDenied, a 403) an action with `bot` by anyone but its owner.

    The ownership rule of the whole site: a bot is public, so refusing to let
    another user change it, upload to it, challenge or enter a tournament with
    it may say why (403). What is private (a version's source and logs, a seat's
    log) is a 404 for anyone else instead, so that its existence is not revealed.
    """
    if not user.is_authenticated or bot.owner_id != user.pk:
        raise PermissionDenied(f"{bot.name} belongs to another user")


def bot_version_can_inspect(*, user: User | AnonymousUser, version: BotVersion) -> bool:
    """True if `user` may read the version's source and logs: its owner, or staff."""
    if not user.is_authenticated:
        return False
    return bool(user.is_staff) or version.bot.owner_id == user.pk


def bot_version_source_for(*, user: User | AnonymousUser, version: BotVersion) -> str:
    """The version's source for its owner or staff; Http404 for anyone else."""
    if not bot_version_can_inspect(user=user, version=version):
        raise Http404("no such bot version")
    return version.source


def bot_version_qualification_log_for(*, user: User | AnonymousUser, version: BotVersion) -> str:
    """The version's qualification log for its owner or staff; Http404 for anyone else."""
    if not bot_version_can_inspect(user=user, version=version):
        raise Http404("no such bot version")
    return version.qualification_log


def ladder_retired_bots(*, ladder: Ladder) -> QuerySet[Bot]:
    """The ladder's retired bots, latest retired first: kept out of its standings."""
    return (
        Bot.objects.filter(ladder=ladder, retired_at__isnull=False)
        .select_related("owner", "current_version")
        .order_by("-retired_at", "id")
    )


def ladder_standings(*, ladder: Ladder) -> list[Standing]:
    """Every bot with an accepted version that is not retired, best rating first, ranked 1, 2, 3...

    `games` counts the current version's rated games; the band (rating +/-
    band) and the provisional mark are the rating system's.
    """
    bots = (
        Bot.objects.filter(
            ladder=ladder, current_version__status=BotVersion.Status.ACCEPTED, retired_at=None
        )
        .select_related("owner", "current_version")
        .order_by("-rating", "id")
    )
    standings = []
    for rank, bot in enumerate(bots, start=1):
        shown = rating_shown(bot.rating_state)
        standings.append(
            Standing(
                rank=rank,
                bot=bot,
                owner=bot.owner.username,
                version=bot.current_version.number,  # type: ignore[union-attr]  # accepted only
                rating=shown.value,
                band=shown.band,
                games=bot.games,
                provisional=shown.provisional,
                house=bot.is_house,
            )
        )
    return standings
