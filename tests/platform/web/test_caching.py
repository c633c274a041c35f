"""The visitor page cache under a crowd: a cold or expired page is rendered by one
request at a time, and nothing is served older than its time plus one rendering."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.test import RequestFactory

from web.caching import visitor_cached

CROWD = 8


class CountedPage:
    """A page that takes `seconds` to render and says which rendering it is."""

    def __init__(self, seconds: float, cache_control: str = "") -> None:
        self.seconds = seconds
        self.cache_control = cache_control
        self.renderings = 0
        self._lock = threading.Lock()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with self._lock:
            self.renderings += 1
            number = self.renderings
        time.sleep(self.seconds)
        response = HttpResponse(f"rendering {number}")
        if self.cache_control:
            response["Cache-Control"] = self.cache_control
        return response


def visitor_get(path: str = "/ladders/crowded/", **headers: str) -> HttpRequest:
    request = RequestFactory().get(path, headers=headers)
    request.user = AnonymousUser()
    return request


def crowd(view: Callable[[HttpRequest], HttpResponse]) -> list[str]:
    """What `CROWD` visitors arriving together are served."""
    start = threading.Barrier(CROWD)

    def visit(_: int) -> str:
        start.wait()
        return view(visitor_get()).content.decode()

    with ThreadPoolExecutor(CROWD) as pool:
        return list(pool.map(visit, range(CROWD)))


@pytest.fixture
def short_freshness(settings) -> int:
    settings.TAVOLO_PAGE_CACHE_SECONDS = 1
    return 1


def test_a_crowd_on_a_cold_page_renders_it_once_and_all_get_that_rendering() -> None:
    page = CountedPage(seconds=0.3)
    served = crowd(visitor_cached(page))
    assert page.renderings == 1
    assert served == ["rendering 1"] * CROWD


def test_a_crowd_on_an_expired_page_gets_the_copy_before_while_one_renders_it_anew(
    short_freshness: int,
) -> None:
    page = CountedPage(seconds=0.3)
    cached = visitor_cached(page)
    assert cached(visitor_get()).content == b"rendering 1"
    time.sleep(short_freshness + 0.1)
    served = crowd(cached)
    assert page.renderings == 2
    assert sorted(served) == ["rendering 1"] * (CROWD - 1) + ["rendering 2"]
    assert cached(visitor_get()).content == b"rendering 2"


def test_a_lone_visitor_after_a_page_expired_gets_a_fresh_rendering(short_freshness: int):
    page = CountedPage(seconds=0)
    cached = visitor_cached(page)
    cached(visitor_get())
    time.sleep(short_freshness + 0.1)
    assert cached(visitor_get()).content == b"rendering 2"


def test_a_page_that_must_be_fresh_is_rendered_for_every_visitor_of_a_crowd() -> None:
    page = CountedPage(seconds=0.1, cache_control="no-cache")
    served = crowd(visitor_cached(page))
    assert page.renderings == CROWD
    assert sorted(served) == sorted(f"rendering {number}" for number in range(1, CROWD + 1))


def test_a_signed_in_crowd_renders_for_each(alice) -> None:
    page = CountedPage(seconds=0)
    cached = visitor_cached(page)
    for _ in range(3):
        request = visitor_get()
        request.user = alice
        cached(request)
    assert page.renderings == 3


def test_the_kept_copy_goes_gzipped_to_a_visitor_who_takes_gzip_and_plain_to_others() -> None:
    cached = visitor_cached(CountedPage(seconds=0))
    cached(visitor_get())
    zipped = cached(visitor_get(accept_encoding="br, gzip;q=0.8"))
    plain = cached(visitor_get(accept_encoding="gzip;q=0, identity"))
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == b"rendering 1"
    assert not plain.has_header("Content-Encoding")
    assert plain.content == b"rendering 1"
    assert zipped["Vary"] == plain["Vary"] == "Accept-Encoding"


def test_a_page_that_holds_a_csrf_token_is_rendered_for_every_visitor() -> None:
    renderings = []

    def form(request: HttpRequest) -> HttpResponse:
        renderings.append(get_token(request))
        return HttpResponse(f"<input name=csrfmiddlewaretoken value={renderings[-1]}>")

    cached = visitor_cached(form)
    served = {cached(visitor_get()).content for _ in range(3)}
    assert len(renderings) == len(served) == 3
