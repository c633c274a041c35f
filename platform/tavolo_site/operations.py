"""/healthz, /readyz and /metrics, answered before the host check and the HTTPS redirect.

Health checks and scrapers call the site by its address (``127.0.0.1:8000``,
a container's IP) over plain HTTP, which ``ALLOWED_HOSTS`` and
``SECURE_SSL_REDIRECT`` would refuse or redirect. So these three paths are
answered by this middleware, which stands before Django's security and common
middleware, and never reach the URL configuration. /metrics checks its own
access (`tavolo_site.metrics`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from tavolo_site.health import healthz, readyz
from tavolo_site.metrics import metrics_view

OPERATIONS: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    "/healthz": healthz,
    "/readyz": readyz,
    "/metrics": metrics_view,
}


class OperationsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = OPERATIONS.get(request.path_info)
        return view(request) if view else self.get_response(request)
