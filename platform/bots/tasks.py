"""Celery tasks of the bots app: thin shells that load ids and call one service."""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from bots.services import bot_version_qualify as bot_version_qualify_service
from bots.services import bot_versions_recover as bot_versions_recover_service


@shared_task(
    bind=True,
    name="bots.tasks.bot_version_qualify",
    soft_time_limit=settings.TAVOLO_QUALIFICATION_TIME_LIMIT - 30,
    time_limit=settings.TAVOLO_QUALIFICATION_TIME_LIMIT,
)
def bot_version_qualify(self: Task, version_id: int) -> None:
    """Qualify one uploaded version in the jail (queue ``matches``)."""
    bot_version_qualify_service(version_id=version_id, worker=self.request.hostname or "")


@shared_task(name="bots.tasks.bot_versions_recover")
def bot_versions_recover() -> None:
    """Send again qualifications that were lost or never picked up (beat, queue ``default``)."""
    bot_versions_recover_service()
