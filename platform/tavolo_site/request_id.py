"""Give every request an id, in its log lines and in the ``X-Request-ID`` answer header.

Each request ends with one access line (``tavolo.access``), in the site's log
format, so gunicorn's own access log is not needed.

A request id sent by the client or a proxy in front of the site is kept if it is
short and plain (letters, digits and ``-_.:``); otherwise the site makes one.
Django's own lines about the answer ("Not Found: ...") are logged after the
middleware has returned; `RequestIdFilter` gives them the id too.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.addresses import client_address
from arena.logs import log_context

access_logger = logging.getLogger("tavolo.access")
"""One line per request: method, path (without the query), status, time taken and the client's
address (`accounts.addresses.client_address`: forwarded only by a trusted proxy)."""

REQUEST_ID_HEADER = "X-Request-ID"
VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")


def request_id_of(request: HttpRequest) -> str:
    """The id the request came with, if it is a plain one, else a new one."""
    offered = request.headers.get(REQUEST_ID_HEADER, "")
    return offered if VALID_REQUEST_ID.fullmatch(offered) else uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request)
        request.request_id = request_id  # type: ignore[attr-defined]  # read by RequestIdFilter
        started = time.monotonic()
        with log_context(request_id=request_id):
            response = self.get_response(request)
            milliseconds = round((time.monotonic() - started) * 1000)
            client = client_address(request)
            access_logger.info(
                "%s %s %s in %s ms from %s",
                request.method,
                request.path,
                response.status_code,
                milliseconds,
                client,
                extra={
                    "client": client,
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": milliseconds,
                },
            )
        response[REQUEST_ID_HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Give the request id to Django's lines about an answer, which come after the middleware.

    Django logs "Not Found: /x" once the middleware has returned, with the request
    on the record: the id is taken from there.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = getattr(getattr(record, "request", None), "request_id", None)
        if request_id and not hasattr(record, "request_id"):
            record.request_id = request_id
            record.context = f"{getattr(record, 'context', '')} [request_id={request_id}]"
        return True
