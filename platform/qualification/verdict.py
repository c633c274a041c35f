"""Qualification's verdict on a version, given as each of its matches finishes.

A version passes if it never crashes and commits at most
`TAVOLO_QUALIFICATION_MAX_INFRACTIONS` infractions over its
`TAVOLO_QUALIFICATION_MATCHES` matches (a late, malformed or illegal reply is
one infraction; a few are allowed so that one slow moment on a busy worker does
not reject a sound bot). It is rejected at its first crash or once over the
limit, and accepted after its last match; a passed version becomes the bot's
current version on the ladder. The reason counts the infractions by kind with
the first of each; the log it keeps lists each match and what the bot wrote to
stderr.
"""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.replay import public_reason
from arena.runner import Infraction
from bots.models import Bot, BotVersion
from ladders.ratings import rating_system
from matches.models import Match, MatchSeat


def version_on_trial(seats: list[MatchSeat]) -> BotVersion | None:
    """The version qualifying in a qualification match with `seats`; None once it is judged."""
    return (
        BotVersion.objects.filter(
            id__in=[seat.bot_version_id for seat in seats], status=BotVersion.Status.QUALIFYING
        )
        .exclude(bot__kind=Bot.Kind.HOUSE)
        .select_related("bot__ladder")
        .first()
    )


def qualification_judge(*, match: Match, seats: list[MatchSeat]) -> str | None:
    """Judge the version on trial in a finished qualification match: accept or reject it
    (the status it gets), or wait for its next match (None).

    The verdict reads every match of the version's current qualification (since
    it started qualifying), so it is the same whichever match finishes last.
    """
    version = version_on_trial(seats)
    if version is None or version.qualification_started_at is None:
        return None
    played = (
        MatchSeat.objects.filter(
            bot_version=version,
            match__kind=Match.Kind.QUALIFICATION,
            match__status=Match.Status.FINISHED,
            match__created_at__gte=version.qualification_started_at,
        )
        .select_related("match__ladder")
        .order_by("match_id")
    )
    limit = settings.TAVOLO_QUALIFICATION_MAX_INFRACTIONS
    report: list[str] = []
    logs: list[str] = []
    infractions = 0
    seen: list[MatchSeat] = []
    failure = ""
    for seat in played:
        report.append(_seat_summary(seat.match, seat))
        logs.append(_seat_log(seat.match, seat))
        infractions += seat.infractions
        seen.append(seat)
        if seat.crashed:
            failure = f"crashed in qualification match {seat.match_id}: {seat.crash_reason}"
            break
        if infractions > limit:
            failure = (
                f"{infractions} infractions in qualification; at most {limit} are allowed: "
                + "; ".join(infractions_by_kind(seen))
            )
            break
    if not failure and len(report) < settings.TAVOLO_QUALIFICATION_MATCHES:
        return None  # the next match decides
    log = "\n".join([*report, *filter(None, logs)])
    if failure:
        _version_reject(version=version, reason=failure, log=log)
        return BotVersion.Status.REJECTED
    _version_accept(version=version, log=log)
    return BotVersion.Status.ACCEPTED


def _seat_summary(match: Match, seat: MatchSeat) -> str:
    summary = (
        f"match {match.pk} (seed {match.public_seed}), seat {seat.seat}: "
        f"place {seat.place} of {match.ladder.seats}, {seat.infractions} infractions"
    )
    return summary + (f", crashed: {seat.crash_reason}" if seat.crashed else "")


def infractions_by_kind(seats: list[MatchSeat]) -> list[str]:
    """One line per kind of infraction over `seats`: how many, and the first one and where.

    ``late x5: no reply within 1 s (decision 3 of match 600)``; the count is of
    the reasons kept (a seat keeps its first `arena.runner.MAX_REASONS_KEPT`).
    """
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for seat in seats:
        for kept in seat.infraction_reasons:
            # The reason is public (a version's status): an exception by its type only.
            infraction = Infraction(public_reason(kept["reason"]), kept["decision"])
            counts[infraction.kind] += 1
            first.setdefault(
                infraction.kind,
                f"{infraction.detail} (decision {infraction.decision} of match {seat.match_id})",
            )
    return [f"{kind} x{count}: {first[kind]}" for kind, count in counts.most_common()]


def _seat_log(match: Match, seat: MatchSeat) -> str:
    """The bot's stderr in the match, headed by the match; empty when it wrote nothing."""
    if not seat.log:
        return ""
    with seat.log.open("rb") as log:
        data: bytes = log.read()
    return f"--- match {match.pk}: the bot's stderr\n" + data.decode(errors="replace")


def _version_reject(*, version: BotVersion, reason: str, log: str) -> None:
    BotVersion.objects.filter(id=version.pk).update(
        status=BotVersion.Status.REJECTED,
        reason=reason,
        qualification_log=log,
        decided_at=timezone.now(),
    )


@transaction.atomic
def _version_accept(*, version: BotVersion, log: str) -> None:
    """Accept the version; it replaces the bot's current version if it is newer.

    A retired bot whose new version is accepted returns to its ladder.

    A new current version starts where the rating system puts a successor of
    the bot's rating (the same value, a wider band); that start is kept.
    """
    bot = Bot.objects.select_for_update().get(id=version.bot_id)
    BotVersion.objects.filter(id=version.pk).update(
        status=BotVersion.Status.ACCEPTED,
        reason="",
        qualification_log=log,
        decided_at=timezone.now(),
    )
    previous_id = bot.current_version_id
    if bot.current_version is None or bot.current_version.number < version.number:
        system = rating_system()
        previous = (
            None
            if previous_id is None
            else BotVersion.objects.select_for_update().filter(id=previous_id).first()
        )
        start = system.initial() if previous is None else system.successor(previous.rating_state)
        BotVersion.objects.filter(id=version.pk).update(
            rating=start.value,
            deviation=start.deviation,
            games=start.games,
            start_rating=start.value,
            start_deviation=start.deviation,
        )
        bot.current_version_id = version.pk
        bot.rating, bot.deviation, bot.games = start.value, start.deviation, start.games
        bot.retired_at, bot.retired_reason = None, ""  # a new version comes back to play
        bot.save(
            update_fields=[
                "current_version",
                "rating",
                "deviation",
                "games",
                "retired_at",
                "retired_reason",
            ]
        )
