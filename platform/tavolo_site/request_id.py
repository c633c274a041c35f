"""Give every request an id, in its log lines and in the ``X-Request-ID`` answer header.

A request id sent by the client or a proxy in front of the site is kept if it is
short and plain (letters, digits and ``-_.:``); otherwise the site makes one.
The id stays bound until the response is closed, so Django's own lines about
the answer ("Not Found: ...") carry it too.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from arena.logs import log_fields_bind, log_fields_reset

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
        token = log_fields_bind(request_id=request_id)
        response = self.get_response(request)  # Django turns exceptions into responses
        response[REQUEST_ID_HEADER] = request_id
        response._resource_closers.append(lambda: log_fields_reset(token))
        return response
