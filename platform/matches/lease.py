"""A running match's lease: the worker playing it renews it every few seconds.

A worker that dies (SIGKILL, a lost host) stops renewing, and `matches_recover`
queues again a match whose lease lapsed `TAVOLO_LEASE_SECONDS` ago, so an
interrupted match is played again within seconds, not after its time limit.
The lease is a column of the match (`heartbeat_at`) renewed by a thread of the
worker with its own database connection. A renewal is keyed by the attempt: a
worker whose match was taken from it (its renewals failed for too long) is
told so in the log and plays on; whichever run finishes first is recorded.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from types import TracebackType

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from matches.models import Match

logger = logging.getLogger(__name__)


def match_lease_renew(*, match_id: int, attempt: int) -> bool:
    """Renew the lease of the running attempt `attempt`; False if it is not that run any more."""
    return bool(
        Match.objects.filter(id=match_id, status=Match.Status.RUNNING, attempts=attempt).update(
            heartbeat_at=timezone.now()
        )
    )


def lease_lapsed(*, now: datetime, lease_seconds: int) -> Q:
    """Running matches whose lease lapsed: not renewed (or, never renewed, not started)
    within `lease_seconds` before `now`."""
    before = now - timedelta(seconds=lease_seconds)
    return Q(status=Match.Status.RUNNING) & (
        Q(heartbeat_at__lt=before) | Q(heartbeat_at__isnull=True, started_at__lt=before)
    )


class LeaseKeeper:
    """Renews a match's lease every `TAVOLO_HEARTBEAT_SECONDS` while the block runs."""

    def __init__(self, *, match_id: int, attempt: int) -> None:
        self.match_id = match_id
        self.attempt = attempt
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._keep, name=f"lease-{match_id}", daemon=True)

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _keep(self) -> None:
        held = True
        try:
            while not self._stop.wait(settings.TAVOLO_HEARTBEAT_SECONDS):
                try:
                    renewed = match_lease_renew(match_id=self.match_id, attempt=self.attempt)
                except DatabaseError as error:
                    logger.warning("could not renew match %s's lease: %s", self.match_id, error)
                    connection.close()  # a broken connection is opened anew next time
                    continue
                if held and not renewed:
                    logger.warning(
                        "match %s was queued again while this worker played it: "
                        "the first run to finish is recorded",
                        self.match_id,
                    )
                held = renewed
        finally:
            connection.close()  # this thread's own connection
