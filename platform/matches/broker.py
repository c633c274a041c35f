"""What the broker holds for the match workers: to tell a lost message from a waiting one."""

from __future__ import annotations

import logging

from django.conf import settings
from kombu.exceptions import ChannelError

logger = logging.getLogger(__name__)

BROKER_CONNECT_SECONDS = 2.0


def match_queue_depth() -> int | None:
    """Messages waiting in the queue of the match workers, or None if the broker cannot say."""
    from celery import current_app

    queue = settings.CELERY_TASK_ROUTES["matches.tasks.match_run"]["queue"]
    try:
        with current_app.connection_for_read() as broker:
            broker.ensure_connection(max_retries=1, timeout=BROKER_CONNECT_SECONDS)
            try:
                declared = broker.default_channel.queue_declare(queue=queue, passive=True)
            except ChannelError:  # Redis keeps no key for an empty queue
                return 0
            return int(declared.message_count)
    except Exception as error:
        logger.warning("cannot count the messages waiting for the match workers: %s", error)
        return None
