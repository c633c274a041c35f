"""What the broker holds for the match workers: to tell a lost message from a waiting one."""

from __future__ import annotations

import logging

from django.conf import settings

logger = logging.getLogger(__name__)

BROKER_CONNECT_SECONDS = 2.0


def match_queue_depth() -> int | None:
    """Messages waiting in the queue of the match workers, or None if the broker cannot say."""
    from celery import current_app

    queue = settings.CELERY_TASK_ROUTES["matches.tasks.match_run"]["queue"]
    try:
        with current_app.connection_for_read() as broker:
            broker.ensure_connection(max_retries=1, timeout=BROKER_CONNECT_SECONDS)
            # Counted as kombu's `queue_declare(passive=True)` counts, without its check that
            # the queue exists: with a global key prefix (TAVOLO_REDIS_PREFIX) that check asks
            # Redis for unprefixed keys (kombu 5.x), finds none, and a full queue passed for
            # empty, so every queued match was sent again. A queue without keys counts 0.
            return int(broker.default_channel._size(queue))
    except Exception as error:
        logger.warning("cannot count the messages waiting for the match workers: %s", error)
        return None
