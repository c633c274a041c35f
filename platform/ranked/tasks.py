"""Celery tasks of the ranked app: thin shells that call one service.

Task names keep the ``matches.tasks.`` prefix they were first sent under, so
beat's schedule and messages already queued still find them.
"""

from __future__ import annotations

from celery import shared_task

from ranked.matchmaking import ladders_schedule as ladders_schedule_service


@shared_task(name="matches.tasks.ladders_schedule")
def ladders_schedule() -> None:
    """Top up every active ladder with ranked matches (beat, queue ``default``)."""
    ladders_schedule_service()
