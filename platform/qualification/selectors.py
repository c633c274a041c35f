"""Reads of qualification: the matches each version played to qualify, read with the bots."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Prefetch, QuerySet

from bots.models import Bot, BotVersion
from matches.models import Match, MatchSeat

QUALIFICATION_SEATS = "qualification_seats"
NEWEST_VERSIONS = "versions_newest_first"


def versions_with_qualification_matches(versions: QuerySet[BotVersion]) -> QuerySet[BotVersion]:
    """`versions`, with the seats of their qualification matches read in one more query
    for any number of versions (`version_qualification_matches` uses them)."""
    seats = MatchSeat.objects.filter(match__kind=Match.Kind.QUALIFICATION).only(
        "id", "match_id", "bot_version_id"
    )
    return versions.prefetch_related(Prefetch("seats", queryset=seats, to_attr=QUALIFICATION_SEATS))


def bots_with_versions(bots: QuerySet[Bot]) -> QuerySet[Bot]:
    """`bots`, with their versions (newest first, without source) and those versions'
    qualification matches, in two more queries for any number of bots
    (`bot_latest_version` uses them)."""
    versions = versions_with_qualification_matches(
        BotVersion.objects.defer("source", "qualification_log").order_by("-number")
    )
    return bots.prefetch_related(Prefetch("versions", queryset=versions, to_attr=NEWEST_VERSIONS))


def bot_latest_version(*, bot: Bot) -> BotVersion | None:
    """The bot's newest version, accepted or not; read with the bot by `bots_with_versions`."""
    newest: list[BotVersion] | None = getattr(bot, NEWEST_VERSIONS, None)
    if newest is None:
        return bot.versions.defer("source", "qualification_log").order_by("-number").first()
    return newest[0] if newest else None


def version_qualification_matches(*, version: BotVersion) -> list[int]:
    """The ids of the qualification matches a version played, in order."""
    seats: list[MatchSeat] | None = getattr(version, QUALIFICATION_SEATS, None)
    if seats is not None:
        return sorted({seat.match_id for seat in seats})
    return list(
        Match.objects.filter(kind=Match.Kind.QUALIFICATION, seats__bot_version=version)
        .order_by("id")
        .values_list("id", flat=True)
        .distinct()
    )


def bot_qualification_seats(*, bot: Bot) -> dict[int, list[MatchSeat]]:
    """The bot's seats in its qualification matches, with their match, by version id, in the
    order played: how each version fared in qualification."""
    seats = (
        MatchSeat.objects.filter(bot=bot, match__kind=Match.Kind.QUALIFICATION)
        .select_related("match__ladder")
        .order_by("match_id", "seat")
    )
    by_version: dict[int, list[MatchSeat]] = defaultdict(list)
    for seat in seats:
        by_version[seat.bot_version_id].append(seat)
    return dict(by_version)
