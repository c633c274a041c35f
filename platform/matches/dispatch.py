"""Sending work to the Celery workers: one way, by the name a task is registered under.

Services send tasks by name (Celery's `send_task`), so no services module
imports a tasks module and tasks import services, never the other way round.
The names are those the tasks were first sent under: messages already queued
and beat's schedule still find them. With `task_always_eager` (tests,
development) the registered task runs in the calling process instead, as
`apply_async` would run it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

from matches.models import Match

MATCH_RUN = "matches.tasks.match_run"


def task_send(name: str, *args: Any, **options: Any) -> None:
    """Send the task registered as `name` with `args`; `options` as `apply_async` takes them."""
    if current_app.conf.task_always_eager:
        current_app.loader.import_default_modules()  # the tasks modules, as a worker has them
        current_app.tasks[name].apply_async(args, **options)
    else:
        current_app.send_task(name, args, **options)


def match_priority(kind: str) -> dict[str, int]:
    """The Celery options that send a match of `kind` ahead of others: a tournament's
    goes at `TAVOLO_TOURNAMENT_PRIORITY`, the rest at Celery's default priority."""
    if kind == Match.Kind.TOURNAMENT:
        return {"priority": settings.TAVOLO_TOURNAMENT_PRIORITY}
    return {}


def matches_send(*, match_ids: Sequence[int], kind: str, ahead: bool = False) -> None:
    """Send the matches to the workers, over one connection, once the transaction commits;
    `ahead` of the others (at the tournament priority) when played again after a lost run."""
    options = match_priority(Match.Kind.TOURNAMENT if ahead else kind)
    ids = list(match_ids)

    def send() -> None:
        with current_app.producer_or_acquire() as producer:
            for match_id in ids:
                task_send(MATCH_RUN, match_id, producer=producer, **options)

    # robust: a broker that is down is logged; matches_recover sends the matches later.
    transaction.on_commit(send, robust=True)
