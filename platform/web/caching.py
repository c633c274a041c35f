"""Public pages served to visitors from the cache for a few seconds.

A ladder, a bot or the match list is the same for every visitor who is not
signed in, and each takes tens of queries' worth of work to render: under a
crowd of readers the site renders it once every `TAVOLO_PAGE_CACHE_SECONDS` and
serves that copy. Signed-in users always get a fresh page (it carries their
name, their messages and their forms), and so does a visitor with a message
waiting. A view keeps a response out of the cache with ``Cache-Control:
no-cache`` (a match still waiting to be played, which reloads itself), and a
response that sets a cookie is never stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

View = Callable[..., HttpResponse]
UNCACHEABLE = ("no-cache", "no-store", "private")


def visitor_cached(view: View) -> View:
    """Serve `view` to visitors (GET, not signed in) from a copy at most a few seconds old."""

    @wraps(view)
    def cached(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        seconds = settings.TAVOLO_PAGE_CACHE_SECONDS
        if not seconds or not _is_visitor(request):
            return view(request, *args, **kwargs)
        key = "tavolo:page:" + hashlib.sha256(request.get_full_path().encode()).hexdigest()
        kept = cache.get(key)
        if kept is not None:
            content, content_type = kept
            return HttpResponse(content, content_type=content_type)
        response = view(request, *args, **kwargs)
        if _storable(response):
            cache.set(key, (response.content, response["Content-Type"]), seconds)
        return response

    return cached


def _is_visitor(request: HttpRequest) -> bool:
    return (
        request.method == "GET"
        and not request.user.is_authenticated
        and not len(get_messages(request))
    )


def _storable(response: HttpResponse) -> bool:
    control = response.get("Cache-Control", "")
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not any(word in control for word in UNCACHEABLE)
    )
