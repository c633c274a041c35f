"""A kept visitor page answered before the session, CSRF, authentication and messages.

`web.caching` keeps one rendering of a public page for visitors (and a finished
match's frames, the same for everyone), but a request for it still went through
the whole middleware stack: the session, the CSRF
check, the user, the messages, the frame and content-security headers, each
costing about as much as serving the copy. A request that carries neither a
session cookie nor a messages cookie can only be a visitor with no message
waiting, so this middleware, placed before those, answers it from a fresh copy
at once.

The copy is answered with the headers the whole stack gave it (`Vary`,
`X-Frame-Options`, `Content-Security-Policy`, ...): they are recorded from the
first request for the copy that went through the stack, and until they are, the
stack answers. The Host is checked against ``ALLOWED_HOSTS`` and the read is
counted against the anonymous read budget as the stack would; a request over
budget goes on to the stack, which refuses it. Anything else (a signed-in user,
a copy past its time, a page never kept) goes on to the stack as before.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

from accounts.throttles import AnonymousReadThrottle, throttle_wait
from web.caching import KEPT_AS, STALE_SECONDS, Kept, fresh, page_key, served

Headers = tuple[tuple[str, str], ...]
RECORDED_SUFFIX = ":headers"
UNRECORDED = frozenset({"content-length", "content-encoding"})
"""Headers that depend on the client's Accept-Encoding, set again for each answer."""


class VisitorCopyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.TAVOLO_PAGE_CACHE_SECONDS or not _cookieless_visitor(request):
            return self.get_response(request)
        key = page_key(request)
        found = cache.get_many([key, key + RECORDED_SUFFIX])
        kept: Kept | None = found.get(key)
        headers: Headers | None = found.get(key + RECORDED_SUFFIX)
        if kept is not None and headers is not None and fresh(kept) and _may_read(request):
            return _answered(request, kept, key, headers)
        response = self.get_response(request)
        if headers is None and getattr(response, KEPT_AS, None) == key and not response.cookies:
            recorded = tuple(
                (name, value)
                for name, value in response.headers.items()
                if name.lower() not in UNRECORDED
            )
            cache.set(
                key + RECORDED_SUFFIX, recorded, settings.TAVOLO_PAGE_CACHE_SECONDS + STALE_SECONDS
            )
        return response


def _cookieless_visitor(request: HttpRequest) -> bool:
    """A GET with no session (so not signed in) and no message waiting in a cookie."""
    return (
        request.method == "GET"
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
    )


def _may_read(request: HttpRequest) -> bool:
    """The Host is one the site answers, and the read is within the client's budget
    (counted if so)."""
    try:
        request.get_host()
    except DisallowedHost:
        return False
    return throttle_wait(AnonymousReadThrottle, request) is None


def _answered(request: HttpRequest, kept: Kept, key: str, headers: Headers) -> HttpResponse:
    response = served(request, kept, key)
    for name, value in headers:
        response[name] = value
    response["Content-Length"] = str(len(response.content))
    return response
