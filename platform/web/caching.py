"""Public pages served to visitors from the cache for a few seconds.

A ladder, a bot or the match list is the same for every visitor who is not
signed in, and each takes tens of queries' worth of work to render: under a
crowd of readers the site renders it once every `TAVOLO_PAGE_CACHE_SECONDS` and
serves that copy. Signed-in users always get a fresh page (it carries their
name, their messages and their forms), and so does a visitor with a message
waiting. A view keeps a response out of the cache with ``Cache-Control:
no-cache`` (a match still waiting to be played, which reloads itself), and a
response that sets a cookie or holds a CSRF token is never stored.

A crowd never renders one page at once: in each process, one request renders
a page that is missing or out of date while the others get the copy before it
(if there is one, at most `STALE_SECONDS` past its time) or wait for that
rendering (if there is none). A visitor is therefore served a copy at most
`TAVOLO_PAGE_CACHE_SECONDS` old, plus the time of the one rendering under way.
"""

from __future__ import annotations

import gzip
import hashlib
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from web.encoding import encoded_response
from web.single_flight import leading, wait_for

View = Callable[..., HttpResponse]
UNCACHEABLE = ("no-cache", "no-store", "private")
STALE_SECONDS = 60
"""How long past its time a copy is kept, to serve while one request renders the page anew."""
GZIP_LEVEL = 6
"""zlib's default: a page of 100 ladder rows shrinks several times over in about a millisecond."""
WAIT_SECONDS = 10.0
"""The longest a request waits for another's rendering of a page there is no copy of."""

KEPT_AS = "tavolo_kept_as"
"""The attribute that marks a response served from the copy kept under its value, a cache
key (`web.visitor_copies` records such a response's headers)."""

Kept = tuple[bytes, str, float]
"""A page's content gzipped, its content type, and until when (`time.time()`) it is fresh.

Kept gzipped, since most clients take it that way: the copy is compressed once, not for
every visitor, and what crosses the network is a fraction of the page."""


def visitor_cached(view: View) -> View:
    """Serve `view` to visitors (GET, not signed in) from a copy at most a few seconds old."""

    @wraps(view)
    def cached(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        seconds = settings.TAVOLO_PAGE_CACHE_SECONDS
        if not seconds or not _is_visitor(request):
            return view(request, *args, **kwargs)
        key = page_key(request)
        kept: Kept | None = cache.get(key)
        if kept is not None and fresh(kept):
            return served(request, kept, key)
        with leading(key) as renders:
            if renders:
                return _rendered(view, request, args, kwargs, key, seconds)
        if kept is None:  # another request renders it: wait for its copy
            wait_for(key, WAIT_SECONDS)
            kept = cache.get(key)
            if kept is None:  # it could not be kept (a 404, a page that must be fresh)
                return view(request, *args, **kwargs)
        return served(request, kept, key)

    return cached


def _rendered(
    view: View, request: HttpRequest, args: Any, kwargs: Any, key: str, seconds: int
) -> HttpResponse:
    """The page rendered, and kept when it may be; a copy made meanwhile if there is one."""
    kept: Kept | None = cache.get(key)
    if kept is not None and fresh(kept):  # rendered by another between the two looks
        return served(request, kept, key)
    response = view(request, *args, **kwargs)
    if _storable(request, response):
        _kept(key, gzip.compress(response.content, GZIP_LEVEL), response["Content-Type"], seconds)
    return response


def kept_for_everyone(request: HttpRequest, gzipped: bytes, content_type: str) -> HttpResponse:
    """`gzipped` as the answer to `request`, kept as the visitors' copy of what it asks for.

    For a document that is the same for every client, signed in or not (a finished
    match's frames): whoever asks makes the visitors' copy.
    """
    key, seconds = page_key(request), settings.TAVOLO_PAGE_CACHE_SECONDS
    kept = _kept(key, gzipped, content_type, seconds) if seconds else (gzipped, content_type, 0)
    return served(request, kept, key)


def _kept(key: str, gzipped: bytes, content_type: str, seconds: int) -> Kept:
    kept = (gzipped, content_type, time.time() + seconds)
    cache.set(key, kept, seconds + STALE_SECONDS)
    return kept


def page_key(request: HttpRequest) -> str:
    """The cache key of the copy of the page `request` asks for."""
    return "tavolo:page:v2:" + hashlib.sha256(request.get_full_path().encode()).hexdigest()


def fresh(kept: Kept) -> bool:
    return time.time() < kept[2]


def served(request: HttpRequest, kept: Kept, key: str) -> HttpResponse:
    """The kept copy as the client takes it, marked as the copy kept under `key`."""
    content, content_type, _ = kept
    response = encoded_response(request, content, gzipped=True, content_type=content_type)
    setattr(response, KEPT_AS, key)
    return response


def _is_visitor(request: HttpRequest) -> bool:
    return (
        request.method == "GET"
        and not request.user.is_authenticated
        and not len(get_messages(request))
    )


def _storable(request: HttpRequest, response: HttpResponse) -> bool:
    control = response.get("Cache-Control", "")
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")  # a form's token, the client's own
        and not any(word in control for word in UNCACHEABLE)
    )
