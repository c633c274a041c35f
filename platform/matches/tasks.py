"""Celery tasks of the matches app: thin shells that load ids and call one service."""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from matches.dispatch import MATCH_RUN
from matches.services import match_run as match_run_service
from matches.services import matches_recover as matches_recover_service


@shared_task(
    bind=True,
    name=MATCH_RUN,
    soft_time_limit=settings.MATCH_TIME_LIMIT - 30,
    time_limit=settings.MATCH_TIME_LIMIT,
)
def match_run(self: Task, match_id: int) -> None:
    """Claim, play and record one match (queue ``matches``, jailed workers only)."""
    match_run_service(match_id=match_id, worker=self.request.hostname or "")


@shared_task(name="matches.tasks.matches_recover")
def matches_recover() -> None:
    """Re-queue matches lost with their worker (beat, queue ``default``)."""
    matches_recover_service()
