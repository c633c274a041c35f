"""Liveness and readiness: /healthz says the web process answers, /readyz that the site works.

The site is ready when the database answers a query, the message broker takes
a connection, and at least one Celery worker answers a broadcast in time with a
working jail (or with the jail explicitly not required: ``TAVOLO_ALLOW_UNJAILED``).
Each worker answers the ``tavolo_status`` control command (`tavolo_site.celery`)
with the result of its own jail self-check. Both answers are JSON, 200 or 503.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from tavolo_site.celery import app as celery_app

WORKER_ANSWER_SECONDS = 1.0
"""How long /readyz waits for the workers' answers."""

BROKER_CONNECT_SECONDS = 2.0


@dataclass
class Check:
    """The outcome of one readiness check, as shown in the /readyz body."""

    ok: bool
    detail: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"ok": self.ok, **self.detail}


def _failed(error: Exception) -> Check:
    return Check(False, {"error": f"{type(error).__name__}: {error}"[:300]})


def database_check() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:
        return _failed(error)
    return Check(True)


def broker_check() -> Check:
    try:
        with celery_app.connection_for_write() as broker:
            broker.ensure_connection(
                max_retries=1, interval_start=0, timeout=BROKER_CONNECT_SECONDS
            )
    except Exception as error:
        return _failed(error)
    return Check(True)


def worker_statuses() -> list[dict[str, Any]]:
    """What each worker answered to ``tavolo_status`` within `WORKER_ANSWER_SECONDS`."""
    answers = celery_app.control.broadcast(
        "tavolo_status", reply=True, timeout=WORKER_ANSWER_SECONDS
    )
    return [status for answer in answers or [] for status in answer.values()]


def workers_check(statuses: list[dict[str, Any]]) -> Check:
    return Check(bool(statuses), {"answered": len(statuses)})


def workers_asked() -> tuple[Check, list[dict[str, Any]]]:
    """The workers' check and their answers; a broker that fails meanwhile fails the check."""
    try:
        statuses = worker_statuses()
    except Exception as error:
        return _failed(error), []
    return workers_check(statuses), statuses


def jail_check(statuses: list[dict[str, Any]]) -> Check:
    jailed = [status for status in statuses if status.get("jail")]
    problems = sorted({status["jail_problem"] for status in statuses if status.get("jail_problem")})
    ok = bool(jailed) or (bool(statuses) and settings.TAVOLO_ALLOW_UNJAILED)
    return Check(ok, {"jailed_workers": len(jailed), "problems": problems})


def readiness() -> dict[str, Check]:
    """Every readiness check by name; the workers are asked only if the broker is up."""
    checks = {"database": database_check(), "broker": broker_check()}
    if checks["broker"].ok:
        checks["workers"], statuses = workers_asked()
    else:
        checks["workers"], statuses = workers_check([]), []
    checks["jail"] = jail_check(statuses)
    return checks


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "alive"})


def readyz(request: HttpRequest) -> JsonResponse:
    checks = readiness()
    ready = all(check.ok for check in checks.values())
    body = {
        "status": "ready" if ready else "not ready",
        "checks": {name: check.as_json() for name, check in checks.items()},
    }
    return JsonResponse(body, status=200 if ready else 503)
