"""Reads of ladders: the list, one ladder, and its standings."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404

from arena.ratings import is_provisional, rating_band
from bots.models import Bot, BotVersion
from ladders.models import Ladder


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


def ladder_list(*, active_only: bool = True) -> QuerySet[Ladder]:
    """The ladders, by slug; only the active ones unless asked."""
    ladders = Ladder.objects.all()
    return ladders.filter(active=True) if active_only else ladders


def ladder_get(*, slug: str) -> Ladder:
    """The ladder `slug`, or Http404."""
    ladder = Ladder.objects.filter(slug=slug).first()
    if ladder is None:
        raise Http404(f"there is no ladder {slug!r}")
    return ladder


def ladder_standings(*, ladder: Ladder) -> list[Standing]:
    """Every bot with an accepted version, best rating first, ranked 1, 2, 3...

    `games` counts the current version's rated games; the band is rating +/-
    band, and a version under 20 games is provisional.
    """
    bots = (
        Bot.objects.filter(ladder=ladder, current_version__status=BotVersion.Status.ACCEPTED)
        .select_related("owner", "current_version")
        .order_by("-rating", "id")
    )
    return [
        Standing(
            rank=rank,
            bot=bot,
            owner=bot.owner.username,
            version=bot.current_version.number,
            rating=bot.rating,
            band=rating_band(bot.games),
            games=bot.games,
            provisional=is_provisional(bot.games),
            house=bot.is_house,
        )
        for rank, bot in enumerate(bots, start=1)
    ]
