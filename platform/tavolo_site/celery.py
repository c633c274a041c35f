"""The Celery app: workers run matches and qualifications, beat schedules ladders.

Start a worker with ``celery -A tavolo_site worker -Q matches,default`` (only on a
machine with the jail for ``matches``) and the scheduler with ``celery -A
tavolo_site beat``. Settings come from Django's, under the ``CELERY_`` prefix.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

PLATFORM_DIR = str(Path(__file__).resolve().parent.parent)
if PLATFORM_DIR not in sys.path:
    sys.path.insert(0, PLATFORM_DIR)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavolo_site.settings")

from celery import Celery, Task  # noqa: E402
from celery.signals import setup_logging, task_prerun, worker_ready  # noqa: E402

from tavolo_site import folder_broker  # noqa: E402, F401  (the tavolo-folder:// broker)
from tavolo_site.worker_status import JAIL_SELF_CHECK  # noqa: E402  (and its control command)

logger = logging.getLogger(__name__)

app = Celery("tavolo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def logging_configure(**kwargs: object) -> None:
    """Log through the site's LOGGING (arena.logs) instead of Celery's own format."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)


@task_prerun.connect
def connections_check(task: Task, **kwargs: object) -> None:
    """Before each task, keep the process's database connections as Django keeps them
    between requests: one that broke or is older than CONN_MAX_AGE is closed, and one
    kept is tested before its first query (CONN_HEALTH_CHECKS), so one whose server
    process ended meanwhile is opened anew. Celery itself closes them only every
    `CELERY_DB_REUSE_MAX` tasks, where it would open one per task, which costs the
    database more CPU than a match's statements. A task run eagerly, in its caller's
    process, is left alone."""
    from django.db import close_old_connections

    if not task.request.is_eager:
        close_old_connections()


@worker_ready.connect
def metrics_serve(**kwargs: object) -> None:
    """Serve this worker's metrics over HTTP if TAVOLO_WORKER_METRICS_PORT is set."""
    from django.conf import settings

    from tavolo_site.metrics import worker_metrics_serve

    if settings.TAVOLO_WORKER_METRICS_PORT is not None:
        worker_metrics_serve(
            address=settings.TAVOLO_WORKER_METRICS_ADDRESS,
            port=settings.TAVOLO_WORKER_METRICS_PORT,
        )


@worker_ready.connect
def jail_report(**kwargs: object) -> None:
    """Check the jail (and keep checking it), and say loudly if this worker cannot jail bots."""
    from django.conf import settings

    from matches.playing import UNJAILED_WARNING, jail_available

    JAIL_SELF_CHECK.start()
    if jail_available():
        return
    if settings.TAVOLO_ALLOW_UNJAILED:
        logger.warning(UNJAILED_WARNING)
    else:
        logger.error(
            "This worker has no working jail (bubblewrap): it will fail matches and hold back "
            "qualifications of uploaded bots. Only house bots can play here."
        )
