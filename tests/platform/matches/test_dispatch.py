"""Work is sent by task name: every name a service sends is a task the workers run."""

from __future__ import annotations

import pytest

from matches.dispatch import MATCH_RUN
from qualification.services import QUALIFY_TASK
from tavolo_site.celery import app as celery_app
from tournaments.services import ADVANCE_TASK


@pytest.mark.parametrize("name", [MATCH_RUN, QUALIFY_TASK, ADVANCE_TASK])
def test_a_name_sent_is_a_registered_task_routed_as_before(name: str) -> None:
    celery_app.loader.import_default_modules()
    assert name in celery_app.tasks
    assert celery_app.tasks[name].name == name
