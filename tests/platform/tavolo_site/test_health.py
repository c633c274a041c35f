"""/healthz and /readyz: JSON answers for any host, 503 while a check fails."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from tavolo_site.health import jail_check

JAILED = {"queues": ["default", "matches"], "jail": True, "jail_problem": None}
NO_JAIL = {"queues": ["matches"], "jail": False, "jail_problem": "/usr/bin/bwrap is missing"}
DEFAULT_ONLY = {"queues": ["default"], "jail": False, "jail_problem": None}


def test_healthz_answers_any_host_over_plain_http(client: Client, settings: Settings) -> None:
    settings.SECURE_SSL_REDIRECT = True
    answer = client.get("/healthz", HTTP_HOST="10.9.8.7:8000")
    assert answer.status_code == 200
    assert answer.json() == {"status": "alive"}


def test_readyz_is_not_ready_without_a_worker(client: Client, db: None) -> None:
    answer = client.get("/readyz")
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "not ready"
    assert body["checks"]["database"] == {"ok": True}
    assert body["checks"]["broker"] == {"ok": True}
    assert body["checks"]["workers"] == {"ok": False, "answered": 0}


@pytest.mark.parametrize(
    ("statuses", "unjailed_allowed", "ready"),
    [
        ([JAILED], False, True),
        ([NO_JAIL, JAILED], False, True),
        ([NO_JAIL], False, False),
        ([DEFAULT_ONLY], False, False),
        ([NO_JAIL], True, True),
        ([], True, False),
    ],
)
def test_the_jail_is_ready_with_one_jailed_worker_or_when_explicitly_not_needed(
    settings: Settings, statuses: list[dict], unjailed_allowed: bool, ready: bool
) -> None:
    settings.TAVOLO_ALLOW_UNJAILED = unjailed_allowed
    check = jail_check(statuses)
    assert check.ok is ready
    assert check.detail["jailed_workers"] == sum(status["jail"] for status in statuses)


def test_the_jail_check_names_the_workers_problems(settings: Settings) -> None:
    settings.TAVOLO_ALLOW_UNJAILED = False
    check = jail_check([NO_JAIL, NO_JAIL, DEFAULT_ONLY])
    assert check.as_json() == {
        "ok": False,
        "jailed_workers": 0,
        "problems": ["/usr/bin/bwrap is missing"],
    }
