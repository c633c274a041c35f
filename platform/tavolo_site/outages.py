"""A request that failed because the database, Redis or the broker is down is answered 503.

Django turns any exception, raised in a view or in a middleware, into the 500
handler's answer; this module is that handler (``handler500`` in the URLs).
It looks at the exception being handled: an outage of a service the site
needs is a 503 with ``Retry-After``, JSON under /api/ and a short HTML page for
the site. Any other exception stays a 500, in the same two forms. Neither
answer renders a template, so neither needs the database.
"""

from __future__ import annotations

import sys

import kombu.exceptions
import redis.exceptions
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.html import escape

OUTAGES: tuple[type[BaseException], ...] = (
    OperationalError,  # the database: refused, dropped or terminated connections
    InterfaceError,
    redis.exceptions.ConnectionError,  # the strict cache (password guesses)
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,  # the broker, when a task is sent
)

RETRY_AFTER_SECONDS = 30
"""What a client is told to wait before trying again after an outage."""

TITLES = {429: "Too many requests", 503: "Try again shortly"}

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} · Tavolo</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{stylesheet}"></head>
<body><nav class="site"><a class="brand" href="/">Tavolo</a></nav>
<main><h1>{title}</h1><p>{message}</p></main></body></html>
"""
"""The site's look (its stylesheet is a static file: served without the database)."""


def is_outage(error: BaseException | None) -> bool:
    """Whether `error`, or an error it was raised from, is a service outage."""
    while error is not None:
        if isinstance(error, OUTAGES):
            return True
        error = error.__cause__ or error.__context__
    return False


def error_response(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """JSON ``{"detail": ...}`` under /api/, a small HTML page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    title = TITLES.get(status, "Something went wrong")
    page = PAGE.format(title=title, message=escape(message), stylesheet=static("web/tavolo.css"))
    return HttpResponse(page, status=status, content_type="text/html; charset=utf-8")


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 handler: a 503 with ``Retry-After`` for an outage, else a plain 500."""
    if is_outage(sys.exc_info()[1]):
        response = error_response(
            request,
            503,
            "the site cannot reach its database or queue right now; "
            f"try again in {RETRY_AFTER_SECONDS} seconds",
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return error_response(request, 500, "an error on the server; it has been logged")
