"""Celery tasks of the qualification app: thin shells that load ids and call one service.

Task names keep the ``matches.tasks.`` prefix they were first sent under, so
beat's schedule, the task routes and messages already queued still find them.
"""

from __future__ import annotations

from celery import Task, shared_task

from qualification.services import QUALIFY_TASK
from qualification.services import bot_version_qualify as bot_version_qualify_service
from qualification.services import bot_versions_recover as bot_versions_recover_service


@shared_task(bind=True, name=QUALIFY_TASK)
def bot_version_qualify(self: Task, version_id: int) -> None:
    """Start qualifying one uploaded version: its first match goes to the workers (queue
    ``matches``, where a worker has the jail); each match sends the next as it finishes."""
    bot_version_qualify_service(version_id=version_id, worker=self.request.hostname or "")


@shared_task(name="matches.tasks.bot_versions_recover")
def bot_versions_recover() -> None:
    """Send again qualifications that were lost or never picked up (beat, queue ``default``)."""
    bot_versions_recover_service()
