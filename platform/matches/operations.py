"""What an operator asks of the match queue: its depth and the matches that are stuck.

Read by ``manage.py matches_queue`` and ``manage.py matches_stuck``; a stuck
match is queued again with ``manage.py match_requeue`` (`matches.services.match_requeue`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from matches.broker import match_queue_depth
from matches.lease import lease_lapsed
from matches.models import Match


@dataclass(frozen=True)
class QueueRow:
    """Queued matches of one ladder and kind, and how long the oldest has waited."""

    ladder: str
    kind: str
    queued: int
    oldest_seconds: float


def queue_rows(*, now: datetime | None = None) -> list[QueueRow]:
    """Queued matches by ladder and kind, most first."""
    now = now or timezone.now()
    rows = (
        Match.objects.filter(status=Match.Status.QUEUED)
        .values_list("ladder__slug", "kind")
        .annotate(count=Count("id"), oldest=Min("queued_at"))
        .order_by("-count", "ladder__slug", "kind")
    )
    return [
        QueueRow(ladder, kind, count, (now - oldest).total_seconds())
        for ladder, kind, count, oldest in rows
    ]


def broker_waiting() -> int | None:
    """Messages the broker holds for the match workers (None if it cannot say)."""
    return match_queue_depth()


def matches_stuck(*, now: datetime | None = None) -> QuerySet[Match]:
    """Running matches whose lease lapsed (their worker is gone or frozen), and matches
    queued longer than ``TAVOLO_LOST_AFTER_SECONDS`` (no worker took their message)."""
    now = now or timezone.now()
    waited_too_long = Q(
        status=Match.Status.QUEUED,
        queued_at__lt=now - timedelta(seconds=settings.TAVOLO_LOST_AFTER_SECONDS),
    )
    lapsed = lease_lapsed(now=now, lease_seconds=settings.TAVOLO_LEASE_SECONDS)
    return (
        Match.objects.filter(lapsed | waited_too_long)
        .select_related("ladder")
        .order_by("queued_at", "id")
    )
