"""What a Celery worker tells the site about itself: its queues and its jail self-check.

/readyz broadcasts the ``tavolo_status`` control command, which each worker's
main process answers at once from what it knows: the queues it consumes and the
result of its last jail self-check (a probe jail that loads a bot). The probe
runs when the worker is ready and again every `JAIL_RECHECK_SECONDS` in a
background thread, so a jail that breaks later is noticed without slowing the
answer down.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from celery.worker.control import inspect_command

from sandbox.jail import jail_problem

logger = logging.getLogger(__name__)

JAIL_RECHECK_SECONDS = 300.0
MATCH_QUEUE = "matches"


class JailSelfCheck:
    """The latest jail probe of this worker."""

    def __init__(self) -> None:
        self.checked = False
        self.problem: str | None = None

    def run(self) -> None:
        jail_problem.cache_clear()  # the matches of this process see the new outcome too
        problem = jail_problem()
        if self.checked and problem != self.problem:
            logger.warning("the jail self-check changed: %s", problem or "the jail works again")
        self.problem, self.checked = problem, True

    def start(self) -> None:
        """Run the probe now, then again every `JAIL_RECHECK_SECONDS` while the process lives."""
        self.run()

        def recheck() -> None:
            while True:
                time.sleep(JAIL_RECHECK_SECONDS)
                self.run()

        threading.Thread(target=recheck, name="jail-self-check", daemon=True).start()


JAIL_SELF_CHECK = JailSelfCheck()


@inspect_command()
def tavolo_status(state: Any) -> dict[str, Any]:
    """This worker's queues and whether it can jail bots, for the site's /readyz."""
    consumer = state.consumer.task_consumer
    queues = sorted(queue.name for queue in consumer.queues) if consumer else []
    check = JAIL_SELF_CHECK
    problem = check.problem if check.checked else "the jail has not been checked yet"
    return {
        "queues": queues,
        "jail": MATCH_QUEUE in queues and problem is None,
        "jail_problem": problem,
    }
