"""Changes to matches: creating, claiming, playing, finishing and recovering them.

Each match is recorded exactly once. A worker claims a queued match with one
conditional UPDATE and goes on only if it changed the row, so a duplicate
delivery does nothing; it renews a lease on the match while it plays, and a
match whose lease lapsed is queued again within seconds (`matches_recover`).
`match_finish` writes the result, the seats and the rating changes in one
transaction that does nothing if the match has already finished, so a
redelivered or re-queued run is never counted twice. What a
finished match then sets off depends on its kind (`matches.finish`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone

from arena.logs import log_context
from arena.runner import MatchRecord, new_seed
from bots.models import BotVersion
from ladders.models import Ladder
from matches import metrics
from matches.broker import match_queue_depth
from matches.dispatch import matches_send
from matches.finish import match_fail, match_finish
from matches.lease import LeaseKeeper, lease_lapsed
from matches.live import ProgressWriter, progress_orphans_delete
from matches.models import Match, MatchSeat
from matches.playing import (
    JailUnavailableError,
    MatchOutcome,
    match_outcome_discard,
    match_outcome_store,
    match_record_play,
)

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
"""A match lost with its worker this many times is marked failed instead of re-queued."""

FINISH_RETRY_FIRST_SECONDS = 0.5
FINISH_RETRY_MOST_SECONDS = 15.0


def match_enqueue(*, match_id: int, kind: str = Match.Kind.RANKED, ahead: bool = False) -> None:
    """Send the match to the workers once the current transaction commits (`dispatch`)."""
    matches_send(match_ids=[match_id], kind=kind, ahead=ahead)


def match_create(
    *,
    ladder: Ladder,
    kind: str,
    versions: Sequence[BotVersion],
    requested_by: User | None = None,
    enqueue: bool = True,
) -> Match:
    """A new match with `versions[i]` in seat i, sent to the workers on commit if `enqueue`."""
    (match,) = matches_create(
        ladder=ladder, kind=kind, tables=[versions], requested_by=requested_by, enqueue=enqueue
    )
    return match


@transaction.atomic
def matches_create(
    *,
    ladder: Ladder,
    kind: str,
    tables: Sequence[Sequence[BotVersion]],
    requested_by: User | None = None,
    enqueue: bool = True,
) -> list[Match]:
    """One new match per table (`table[i]` in seat i), in two inserts however many."""
    for versions in tables:
        if len(versions) != ladder.seats:
            raise ValidationError(
                f"{ladder.name} plays with {ladder.seats} bots, not {len(versions)}"
            )
    now = timezone.now()
    matches = Match.objects.bulk_create(
        Match(
            ladder=ladder,
            kind=kind,
            seed=format(new_seed(), "032x"),
            requested_by=requested_by,
            queued_at=now,
        )
        for _ in tables
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, bot_id=version.bot_id, bot_version=version)
        for match, versions in zip(matches, tables, strict=True)
        for seat, version in enumerate(versions)
    )
    if enqueue:
        matches_send(match_ids=[match.pk for match in matches], kind=kind)
    return matches


def match_claim(*, match_id: int, worker: str) -> int | None:
    """Move a queued match to running; return its attempt number, or None if not ours."""
    if not match_claimed(match_id=match_id, worker=worker):
        return None
    return Match.objects.values_list("attempts", flat=True).get(id=match_id)


def match_claimed(*, match_id: int, worker: str) -> bool:
    """Move a queued match to running, in one conditional UPDATE; False if not ours."""
    now = timezone.now()
    return bool(
        Match.objects.filter(id=match_id, status=Match.Status.QUEUED).update(
            status=Match.Status.RUNNING,
            started_at=now,
            heartbeat_at=now,
            claimed_by=worker[:200],
            attempts=F("attempts") + 1,
        )
    )


def match_run(*, match_id: int, worker: str) -> bool:
    """Claim, play and record one queued match; False if another run has it or had it."""
    if not match_claimed(match_id=match_id, worker=worker):
        logger.info("match %s is not queued any more: nothing to do", match_id)
        return False
    match = Match.objects.select_related("ladder").get(id=match_id)
    return match_play_and_record(match=match, attempt=match.attempts)


def match_play_and_record(*, match: Match, attempt: int) -> bool:
    """Play a claimed match and record it, or record why it could not be played.

    The worker holds the match's lease meanwhile (`matches.lease`). Every line
    logged meanwhile, here or in the arena and the jail, carries the match id.
    """
    with log_context(match_id=match.pk):
        progress = ProgressWriter(match_id=match.pk, attempt=attempt)
        try:
            with LeaseKeeper(match_id=match.pk, attempt=attempt):
                return _match_play_and_record(match=match, attempt=attempt, progress=progress)
        finally:
            try:
                progress.clear()
            except DatabaseError:
                logger.warning("could not clear the progress of match %s", match.pk)


def _match_play_and_record(*, match: Match, attempt: int, progress: ProgressWriter) -> bool:
    try:
        record = match_record_play(match=match, progress=progress)
    except JailUnavailableError as error:
        _match_failed(match=match, attempt=attempt, reason=str(error))
        return False
    except DatabaseError:
        raise  # not the match's fault: its lease lapses and it is played again
    except Exception as error:
        logger.exception("match %s could not be played", match.pk)
        _match_failed(match=match, attempt=attempt, reason=_failure_reason(error))
        return False
    outcome = match_outcome_store(match=match, record=record)
    if match_finish_when_written(match_id=match.pk, outcome=outcome):
        logger.info(
            "match %s played: %s decisions in %.1f s", match.pk, record.decisions, record.seconds
        )
        transaction.on_commit(lambda: _match_played_count(match=match, record=record))
        return True
    match_outcome_discard(outcome=outcome)
    return False


def match_finish_when_written(*, match_id: int, outcome: MatchOutcome) -> bool:
    """`match_finish`, tried again while the database is unreachable: a played match is
    recorded once the database is back, never thrown away and played again.

    Waits from `FINISH_RETRY_FIRST_SECONDS` doubling up to `FINISH_RETRY_MOST_SECONDS`
    between tries, for `TAVOLO_FINISH_RETRY_SECONDS` in all; then the error is raised
    (and the lapsed lease has the match played again). A try whose commit went through
    although its connection broke is recognised by the replay it recorded.
    """
    deadline = time.monotonic() + settings.TAVOLO_FINISH_RETRY_SECONDS
    pause = FINISH_RETRY_FIRST_SECONDS
    tried = False
    while True:
        try:
            if match_finish(match_id=match_id, outcome=outcome):
                return True
            return tried and _recorded_with(match_id=match_id, outcome=outcome)
        except (OperationalError, InterfaceError) as error:
            if connection.in_atomic_block or time.monotonic() + pause > deadline:
                raise
            logger.warning(
                "could not record match %s (%s); trying again in %.1f s", match_id, error, pause
            )
        tried = True
        connection.close()  # the next try opens a new connection
        time.sleep(pause)
        pause = min(pause * 2, FINISH_RETRY_MOST_SECONDS)


def _recorded_with(*, match_id: int, outcome: MatchOutcome) -> bool:
    return Match.objects.filter(
        id=match_id, status=Match.Status.FINISHED, replay=outcome.replay_name
    ).exists()


def _match_failed(*, match: Match, attempt: int, reason: str) -> None:
    if match_fail(match_id=match.pk, attempt=attempt, reason=reason):
        _match_count(match=match, outcome="failed")


def _match_count(*, match: Match, outcome: str) -> None:
    """Count `match` as played, failed or re-run once the current transaction commits."""
    labels = {"ladder": match.ladder.slug, "kind": match.kind, "outcome": outcome}
    transaction.on_commit(lambda: metrics.MATCHES.labels(**labels).inc())


def _match_played_count(*, match: Match, record: MatchRecord) -> None:
    labels = {"ladder": match.ladder.slug, "kind": match.kind}
    metrics.MATCHES.labels(**labels, outcome="played").inc()
    metrics.MATCH_SECONDS.labels(**labels).observe(record.seconds)
    metrics.DECISIONS.labels(**labels).inc(record.decisions)
    metrics.INFRACTIONS.labels(**labels).inc(sum(seat.infractions for seat in record.seats))
    metrics.CRASHES.labels(**labels).inc(sum(seat.crashed for seat in record.seats))


def _failure_reason(error: Exception) -> str:
    from celery.exceptions import SoftTimeLimitExceeded

    if isinstance(error, SoftTimeLimitExceeded):
        return "the match took longer than the worker's time limit"
    return f"the match could not be played: {type(error).__name__}: {error}"


@transaction.atomic
def matches_recover(
    *,
    now: datetime | None = None,
    lease_seconds: int | None = None,
    resend_seconds: int | None = None,
) -> list[int]:
    """Queue again the matches lost with their worker, and send again those whose message
    was lost; return the ids sent, each once.

    A running match whose lease lapsed `lease_seconds` ago (default
    `TAVOLO_LEASE_SECONDS`; see `matches.lease`) is queued again, ahead of the
    others, or failed after `MAX_ATTEMPTS`; a qualification match is failed,
    since its qualification restarts as a whole (`bot_versions_recover`). A
    match queued for `resend_seconds` (default `TAVOLO_RESEND_SECONDS`) is sent
    again when the broker holds fewer messages than there are queued matches
    (Redis restarted empty, say), oldest first; one queued for
    `TAVOLO_LOST_AFTER_SECONDS`, whatever the broker says. Nothing is counted
    twice: a match is claimed once per run and finished once. Live progress
    no one will read any more is deleted (`matches.live.progress_orphans_delete`).
    """
    now = now or timezone.now()
    lease_seconds = settings.TAVOLO_LEASE_SECONDS if lease_seconds is None else lease_seconds
    if resend_seconds is None:
        resend_seconds = settings.TAVOLO_RESEND_SECONDS
    waiting = match_queue_depth()
    queued = Match.objects.filter(status=Match.Status.QUEUED).count()
    requeued = _matches_requeue_lapsed(now=now, lease_seconds=lease_seconds)
    missing = 0 if waiting is None else queued - waiting
    resent = _matches_resend_lost(
        now=now,
        missing=missing,
        resend_before=now - timedelta(seconds=resend_seconds),
        lost_before=now - timedelta(seconds=settings.TAVOLO_LOST_AFTER_SECONDS),
    )
    kinds = dict(Match.objects.filter(pk__in=requeued + resent).values_list("pk", "kind"))
    for match_id in requeued + resent:
        match_enqueue(match_id=match_id, kind=kinds[match_id], ahead=True)
    if requeued:
        logger.warning("queued again matches whose lease lapsed: %s", requeued)
    if resent:
        logger.warning("sent again queued matches whose message was lost: %s", resent)
    if orphans := progress_orphans_delete():
        logger.info("deleted %s pieces of live progress that no one will read", orphans)
    return requeued + resent


REQUEUE_STATUSES = (Match.Status.QUEUED, Match.Status.RUNNING, Match.Status.FAILED)


@transaction.atomic
def match_requeue(*, match_id: int) -> str:
    """Queue a queued, running or failed match again and send it to the workers, ahead of
    the others; return what was done. For an operator (``manage.py match_requeue``).

    A run still going on meanwhile cannot record it twice: a match is finished
    once (`match_finish`). A qualification match is refused, its qualification
    restarts as a whole (`bot_versions_recover`); so is a finished match. A
    ValidationError says why.
    """
    match = Match.objects.select_for_update().filter(id=match_id).first()
    if match is None:
        raise ValidationError(f"there is no match {match_id}")
    if match.kind == Match.Kind.QUALIFICATION:
        raise ValidationError(f"match {match_id} is a qualification match: it is not re-run alone")
    if match.status not in REQUEUE_STATUSES:
        raise ValidationError(f"match {match_id} is {match.status}: only queued, running or failed")
    was = match.status
    match.status = Match.Status.QUEUED
    match.claimed_by = ""
    match.queued_at = timezone.now()
    match.finished_at = None
    match.failure_reason = ""
    match.save(update_fields=["status", "claimed_by", "queued_at", "finished_at", "failure_reason"])
    match_enqueue(match_id=match.pk, kind=match.kind, ahead=True)
    logger.warning("match %s (%s) queued again by an operator", match.pk, was)
    return f"match {match.pk} was {was}: queued again"


def _matches_requeue_lapsed(*, now: datetime, lease_seconds: int) -> list[int]:
    requeued = []
    lapsed = Match.objects.select_for_update(skip_locked=True).filter(
        lease_lapsed(now=now, lease_seconds=lease_seconds)
    )
    for match in lapsed:
        if match.kind == Match.Kind.QUALIFICATION or match.attempts >= MAX_ATTEMPTS:
            match.status = Match.Status.FAILED
            match.finished_at = now
            match.failure_reason = f"lost with its worker ({match.attempts} attempts)"
            match.save(update_fields=["status", "finished_at", "failure_reason"])
            _match_count(match=match, outcome="failed")
            continue
        match.status = Match.Status.QUEUED
        match.claimed_by = ""
        match.queued_at = now
        match.save(update_fields=["status", "claimed_by", "queued_at"])
        _match_count(match=match, outcome="rerun")
        requeued.append(match.pk)
    return requeued


def _matches_resend_lost(
    *, now: datetime, missing: int, resend_before: datetime, lost_before: datetime
) -> list[int]:
    """Mark sent again the `missing` oldest matches queued before `resend_before`, and
    any queued before `lost_before`."""
    waiting = Match.objects.filter(status=Match.Status.QUEUED).order_by("queued_at", "id")
    ids = set(waiting.filter(queued_at__lt=lost_before).values_list("id", flat=True))
    if missing > 0:
        oldest = waiting.filter(queued_at__lt=resend_before).values_list("id", flat=True)
        ids.update(oldest[:missing])
    resent = list(
        Match.objects.select_for_update(skip_locked=True)
        .filter(id__in=ids, status=Match.Status.QUEUED)
        .order_by("queued_at", "id")
        .values_list("id", flat=True)
    )
    Match.objects.filter(id__in=resent).update(queued_at=now)
    return resent
