"""Celery tasks of the tournaments app: thin shells that call one service."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import ADVANCE_TASK
from tournaments.services import tournament_advance as tournament_advance_service
from tournaments.services import tournaments_tick as tournaments_tick_service


@shared_task(name="tournaments.tasks.tournaments_tick")
def tournaments_tick() -> None:
    """Freeze, start and advance tournaments as their times come (beat, queue ``default``)."""
    tournaments_tick_service()


@shared_task(name=ADVANCE_TASK)
def tournament_advance(tournament_id: int) -> None:
    """Advance one tournament after one of its matches finished (queue ``default``)."""
    tournament_advance_service(tournament_id=tournament_id)
