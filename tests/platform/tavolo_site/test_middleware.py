"""The site's own middleware: multipart bodies over the upload limit are refused unread."""

from __future__ import annotations

import io

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from tavolo_site.middleware import MultipartSizeLimitMiddleware


class UnreadableStream(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def read(self, size: int = -1) -> bytes:
        raise AssertionError("the body was read")


def unreachable(request: HttpRequest) -> HttpResponse:
    raise AssertionError("the view was reached")


@pytest.mark.parametrize(("path", "kind"), [("/account/bots/", "text"), ("/api/bots/", "json")])
def test_a_multipart_body_over_the_limit_is_refused_before_it_is_read(path: str, kind: str) -> None:
    request = RequestFactory().post(path, content_type="multipart/form-data; boundary=x")
    request.META["CONTENT_LENGTH"] = str(10**9)
    request.META["wsgi.input"] = UnreadableStream()
    answer = MultipartSizeLimitMiddleware(unreachable)(request)
    assert answer.status_code == 413
    assert kind in answer["Content-Type"]
    assert "256 KiB" in answer.content.decode()


def test_a_multipart_body_within_the_limit_goes_on() -> None:
    request = RequestFactory().post("/api/bots/", {"name": "liar"})
    answer = MultipartSizeLimitMiddleware(lambda request: HttpResponse("passed"))(request)
    assert answer.content == b"passed"
