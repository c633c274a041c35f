"""Qualification: a new version plays the ladder's house bots in the jail before it may enter.

It plays up to `TAVOLO_QUALIFICATION_MATCHES` unranked matches against the
ladder's house bots, one after the other: `bot_version_qualify` sends the
first to the workers, and as each finishes (`matches.finish`, where
`qualification_match_finished` is registered) `qualification.verdict` accepts
or rejects the version, or this module sends the next match. No task holds a
qualification: each match is claimed, leased and recovered like any other, on
whichever jailed worker takes it.

Qualification plays matches to judge a version, so it lives in an app above
matches; the bots app announces each upload (`bots.signals.version_uploaded`)
and `version_uploaded_qualify` sends it here.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from kombu.exceptions import OperationalError

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.dispatch import task_send
from matches.metrics import QUALIFICATIONS
from matches.models import Match, MatchSeat
from matches.playing import JailUnavailableError, uploaded_bots_jailed
from matches.services import match_create
from qualification.verdict import qualification_judge, version_on_trial

logger = logging.getLogger(__name__)

QUALIFY_TASK = "matches.tasks.bot_version_qualify"
"""The qualification task's name, kept from when it was in matches: queued messages find it."""

PENDING_RESEND_SECONDS = 300
"""A version still pending this long after its qualification was sent is sent again."""


def bot_version_qualify_enqueue(*, version_id: int) -> None:
    """Send the version to the jailed workers for qualification, once the transaction commits.

    If the broker cannot take it, the version is marked not sent, so that the next
    `bot_versions_recover` sends it: within `TAVOLO_RECOVER_SECONDS` of the broker being
    back, since beat sends that task through the broker too.
    """
    # robust: should marking it fail too, that is logged and the request still answered.
    transaction.on_commit(lambda: _qualification_send(version_id=version_id), robust=True)


def _qualification_send(*, version_id: int) -> None:
    try:
        task_send(QUALIFY_TASK, version_id)
    except OperationalError as error:  # the broker is unreachable
        logger.warning(
            "could not send version %s to qualification (%s): it is sent once the broker is back",
            version_id,
            error,
        )
        BotVersion.objects.filter(id=version_id, status=BotVersion.Status.PENDING).update(
            qualification_requested_at=None
        )


def version_uploaded_qualify(*, version_id: int, **signal: Any) -> None:
    """The answer to `bots.signals.version_uploaded`: send the new version to qualification."""
    bot_version_qualify_enqueue(version_id=version_id)


def bot_version_qualify(*, version_id: int, worker: str) -> BotVersion | None:
    """Start qualifying a pending version: it goes to qualifying and its first match to the
    workers; return the version as it is after the current transaction.

    A worker without the jail leaves the version pending with the reason, for a
    worker that has one (`bot_versions_recover` sends it again later). A version
    deleted with its bot before it qualified is skipped: None. `worker` names the
    worker in the log.
    """
    version = BotVersion.objects.select_related("bot__ladder").filter(id=version_id).first()
    if version is None:
        logger.info("version %s was deleted with its bot: nothing to qualify", version_id)
        return None
    if version.status != BotVersion.Status.PENDING:
        return version
    house = _house_versions(version.bot.ladder)
    waiting = "" if house else "waiting for the ladder's house bots"
    if not waiting:
        try:
            uploaded_bots_jailed()
        except JailUnavailableError as error:
            waiting = f"waiting for a worker with the jail: {error}"
    if waiting:
        BotVersion.objects.filter(id=version_id, status=BotVersion.Status.PENDING).update(
            reason=waiting
        )
        logger.warning("version %s cannot qualify on %s: %s", version_id, worker, waiting)
    else:
        _qualification_start(version=version, house=house)
    return BotVersion.objects.select_related("bot__ladder").filter(id=version_id).first()


@transaction.atomic
def _qualification_start(*, version: BotVersion, house: list[BotVersion]) -> None:
    claimed = BotVersion.objects.filter(id=version.pk, status=BotVersion.Status.PENDING).update(
        status=BotVersion.Status.QUALIFYING, qualification_started_at=timezone.now(), reason=""
    )
    if claimed:
        _qualification_match_send(version=version, house=house, number=0)


def _house_versions(ladder: Ladder) -> list[BotVersion]:
    """The ladder's house bots' versions, strongest name first, to fill qualification tables."""
    bots = Bot.objects.filter(
        ladder=ladder, kind=Bot.Kind.HOUSE, current_version__isnull=False
    ).select_related("current_version")
    strongest_first = sorted(bots, key=lambda bot: bot.name != "builtin:strong")
    return [bot.current_version for bot in strongest_first if bot.current_version is not None]


def _qualification_match_send(*, version: BotVersion, house: list[BotVersion], number: int) -> None:
    """Create the version's match `number` (from 0) against the house bots and send it to the
    workers once the transaction commits; the version sits in seat `number` modulo the seats."""
    ladder = version.bot.ladder
    seat_number = number % ladder.seats
    opponents = [house[i % len(house)] for i in range(ladder.seats - 1)]
    versions = [*opponents[:seat_number], version, *opponents[seat_number:]]
    match_create(ladder=ladder, kind=Match.Kind.QUALIFICATION, versions=versions)


def qualification_match_finished(*, match: Match, seats: list[MatchSeat]) -> None:
    """What a finished qualification match sets off (`matches.finish`): the verdict, or the
    version's next match.

    Only the newest match of the version's current qualification sends the next
    one, so a match left over from a qualification that restarted sends nothing.
    """
    verdict = qualification_judge(match=match, seats=seats)
    ladder = match.ladder.slug
    if verdict in (BotVersion.Status.ACCEPTED, BotVersion.Status.REJECTED):
        transaction.on_commit(
            lambda: QUALIFICATIONS.labels(ladder=ladder, outcome=verdict).inc(), robust=True
        )
        return
    version = version_on_trial(seats)
    if version is None or version.qualification_started_at is None:
        return
    sent = Match.objects.filter(
        kind=Match.Kind.QUALIFICATION,
        seats__bot_version=version,
        created_at__gte=version.qualification_started_at,
    )
    newest = sent.order_by("-id").values_list("id", flat=True).first()
    if newest == match.pk and sent.count() < settings.TAVOLO_QUALIFICATION_MATCHES:
        house = _house_versions(match.ladder)
        if house:
            _qualification_match_send(version=version, house=house, number=sent.count())


def qualification_match_failed(*, match: Match, seats: list[MatchSeat]) -> None:
    """A qualification match a worker could not play (the platform's failure, not the
    bot's) decides nothing: its version goes back to pending, to be sent again by
    `bot_versions_recover`. A match lost with its worker is not one of these: the
    recovery finds its qualification lost and sends it again within seconds."""
    version = version_on_trial(seats)
    if version is None or version.qualification_started_at is None:
        return
    if match.created_at < version.qualification_started_at:
        return  # left over from an earlier qualification of the version
    ladder = match.ladder.slug
    transaction.on_commit(
        lambda: QUALIFICATIONS.labels(ladder=ladder, outcome="retried").inc(), robust=True
    )
    _version_retry_later(
        version=version,
        reason=f"qualification match {match.pk} could not be played "
        f"({match.failure_reason}); it will be tried again",
    )


def _version_retry_later(*, version: BotVersion, reason: str) -> None:
    """Put back a version whose qualification failed on the platform's side, not the bot's."""
    logger.warning("version %s goes back to pending: %s", version.pk, reason)
    BotVersion.objects.filter(id=version.pk, status=BotVersion.Status.QUALIFYING).update(
        status=BotVersion.Status.PENDING, reason=reason, qualification_requested_at=timezone.now()
    )


@transaction.atomic
def bot_versions_recover(
    *, now: datetime | None = None, lost_after_seconds: int | None = None
) -> list[int]:
    """Send again the qualifications lost with their worker or never picked up.

    A qualification was lost with its worker when none of its matches is queued,
    holds a live lease (`matches.lease`) or finished within
    `TAVOLO_LEASE_SECONDS`; with `lost_after_seconds`, also when it is still
    running that long after it started (0 at start-up: every one is lost).
    """
    now = now or timezone.now()
    lease_before = now - timedelta(seconds=settings.TAVOLO_LEASE_SECONDS)
    playing = Match.objects.filter(
        Q(status=Match.Status.QUEUED)
        | Q(status=Match.Status.RUNNING, heartbeat_at__gte=lease_before)
        | Q(status=Match.Status.FINISHED, finished_at__gte=lease_before),
        kind=Match.Kind.QUALIFICATION,
        seats__bot_version=OuterRef("pk"),
        created_at__gte=OuterRef("qualification_started_at"),
    )
    lost = Q(~Exists(playing), qualification_started_at__lt=lease_before)
    if lost_after_seconds is not None:
        lost |= Q(qualification_started_at__lt=now - timedelta(seconds=lost_after_seconds))
    BotVersion.objects.filter(lost, status=BotVersion.Status.QUALIFYING).update(
        status=BotVersion.Status.PENDING, qualification_requested_at=None
    )
    stale = list(
        BotVersion.objects.select_for_update(skip_locked=True)
        .filter(status=BotVersion.Status.PENDING)
        .exclude(qualification_requested_at__gte=now - timedelta(seconds=PENDING_RESEND_SECONDS))
        .values_list("id", flat=True)
    )
    BotVersion.objects.filter(id__in=stale).update(qualification_requested_at=now)
    for version_id in stale:
        bot_version_qualify_enqueue(version_id=version_id)
    return stale
