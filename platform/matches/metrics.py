"""Tavolo's own Prometheus metrics: matches, qualifications, ratings and the jail.

Counted where the change is recorded, once it is committed, so a run that is
not recorded (a redelivery, a rollback) counts nothing. The jail's events come
from the sandbox's log records: a record with a ``jail_event`` attribute
(``start``, ``start_failed``, ``kill``...) is counted by `JailEventCounter`,
which the site's logging configuration hangs on the ``sandbox`` logger.

Queue depth and the age of the oldest queued match are not counted here: the
metrics endpoint reads them from the database when it is scraped.
"""

from __future__ import annotations

import logging

from prometheus_client import Counter, Histogram

MATCHES = Counter(
    "tavolo_matches",
    "Matches recorded as played, marked failed, or re-queued to run again after a lost worker.",
    ["ladder", "kind", "outcome"],
)
MATCH_SECONDS = Histogram(
    "tavolo_match_duration_seconds",
    "Wall-clock time to play one match, from opening its bots to its last move.",
    ["ladder", "kind"],
    buckets=(0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900),
)
DECISIONS = Counter(
    "tavolo_decisions", "Decisions asked of bots in recorded matches.", ["ladder", "kind"]
)
INFRACTIONS = Counter(
    "tavolo_infractions",
    "Late, malformed or illegal answers in recorded matches.",
    ["ladder", "kind"],
)
CRASHES = Counter(
    "tavolo_bot_crashes", "Bots that crashed in recorded matches.", ["ladder", "kind"]
)
RATING_UPDATES = Counter(
    "tavolo_rating_updates", "Bot ratings moved by ranked matches.", ["ladder"]
)
QUALIFICATIONS = Counter(
    "tavolo_qualifications",
    "Qualifications of uploaded versions: accepted, rejected, or retried (a match not played).",
    ["ladder", "outcome"],
)
JAIL_EVENTS = Counter(
    "tavolo_jail_events",
    "Events of the bot jail: start, start_failed, kill and whatever else the sandbox logs.",
    ["event"],
)


class JailEventCounter(logging.Handler):
    """Count the sandbox's log records that name a jail event, whatever their level."""

    def emit(self, record: logging.LogRecord) -> None:
        event = getattr(record, "jail_event", None)
        if isinstance(event, str):
            JAIL_EVENTS.labels(event=event).inc()
