"""The read budget of anonymous clients on the site's pages (``TAVOLO_ANONYMOUS_READ_RATE``).

The API counts anonymous reads with DRF's `accounts.throttles.AnonymousReadThrottle`;
this middleware counts the pages' reads against the same budget, per client
address, so one client cannot take the site's workers by reading in a loop.
Signed-in users, writes, static files and the operations paths (answered
before this middleware) are not counted. Over budget, a page is a 429 with
``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.throttles import AnonymousReadThrottle, throttle_wait
from tavolo_site.outages import error_response


class AnonymousReadThrottleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            wait = throttle_wait(AnonymousReadThrottle, request)
            if wait is not None:
                response = error_response(
                    request, 429, f"too many pages read: try again in {wait} seconds"
                )
                response["Retry-After"] = str(wait)
                return response
        return self.get_response(request)
