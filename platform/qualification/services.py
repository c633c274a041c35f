"""Qualification: a new version plays the ladder's house bots in the jail before it may enter.

It plays up to `TAVOLO_QUALIFICATION_MATCHES` unranked matches against the
ladder's house bots, one after the other on one worker; after each of them,
`qualification.verdict` accepts or rejects the version, or waits for
the next match.

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
from matches.models import Match
from matches.playing import JailUnavailableError, uploaded_bots_jailed
from matches.services import match_claim, match_create, match_play_and_record

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
    """Qualify a pending version in the jail: accept or reject it, with the log.

    A worker without the jail leaves the version pending with the reason, for a
    worker that has one (`bot_versions_recover` sends it again later). A version
    deleted with its bot before it qualified is skipped: None.
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
        logger.warning("version %s cannot qualify here: %s", version_id, waiting)
    else:
        claimed = BotVersion.objects.filter(id=version_id, status=BotVersion.Status.PENDING).update(
            status=BotVersion.Status.QUALIFYING, qualification_started_at=timezone.now(), reason=""
        )
        if claimed:
            _qualification_play(version=version, house=house, worker=worker)
    return BotVersion.objects.select_related("bot__ladder").filter(id=version_id).first()


def _house_versions(ladder: Ladder) -> list[BotVersion]:
    """The ladder's house bots' versions, strongest name first, to fill qualification tables."""
    bots = Bot.objects.filter(
        ladder=ladder, kind=Bot.Kind.HOUSE, current_version__isnull=False
    ).select_related("current_version")
    strongest_first = sorted(bots, key=lambda bot: bot.name != "builtin:strong")
    return [bot.current_version for bot in strongest_first if bot.current_version is not None]


def _qualification_play(*, version: BotVersion, house: list[BotVersion], worker: str) -> None:
    """Play the qualification matches until the version is judged (`qualification_judge`).

    A match that could not be played at all (the platform's failure, not the
    bot's) decides nothing: the version goes back to pending, to be sent again
    by `bot_versions_recover`.
    """
    ladder = version.bot.ladder
    for number in range(settings.TAVOLO_QUALIFICATION_MATCHES):
        seat_number = number % ladder.seats
        opponents = [house[i % len(house)] for i in range(ladder.seats - 1)]
        versions = [*opponents[:seat_number], version, *opponents[seat_number:]]
        match = match_create(
            ladder=ladder, kind=Match.Kind.QUALIFICATION, versions=versions, enqueue=False
        )
        attempt = match_claim(match_id=match.pk, worker=worker)
        match_play_and_record(match=match, attempt=attempt or 0)
        match.refresh_from_db()
        if match.status != Match.Status.FINISHED:
            QUALIFICATIONS.labels(ladder=ladder.slug, outcome="retried").inc()
            _version_retry_later(
                version=version,
                reason=f"qualification match {match.pk} could not be played "
                f"({match.failure_reason}); it will be tried again",
            )
            return
        version.refresh_from_db()
        if version.status != BotVersion.Status.QUALIFYING:  # accepted or rejected
            QUALIFICATIONS.labels(ladder=ladder.slug, outcome=version.status).inc()
            return


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

    A qualification was lost with its worker when none of its matches holds a
    live lease (`matches.lease`) or finished within `TAVOLO_LEASE_SECONDS`, or
    when it is still running `lost_after_seconds` after it started (by default,
    a little more than its task's time limit).
    """
    now = now or timezone.now()
    if lost_after_seconds is None:
        lost_after_seconds = settings.TAVOLO_QUALIFICATION_TIME_LIMIT + 60
    lost_before = now - timedelta(seconds=lost_after_seconds)
    lease_before = now - timedelta(seconds=settings.TAVOLO_LEASE_SECONDS)
    playing = Match.objects.filter(
        Q(status=Match.Status.RUNNING, heartbeat_at__gte=lease_before)
        | Q(status=Match.Status.FINISHED, finished_at__gte=lease_before),
        kind=Match.Kind.QUALIFICATION,
        seats__bot_version=OuterRef("pk"),
    )
    qualifying = BotVersion.objects.filter(status=BotVersion.Status.QUALIFYING)
    qualifying.filter(
        Q(qualification_started_at__lt=lost_before)
        | Q(~Exists(playing), qualification_started_at__lt=lease_before)
    ).update(status=BotVersion.Status.PENDING, qualification_requested_at=None)
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
