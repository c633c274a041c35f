"""Refuse a multipart body too large to hold a bot file, before anything reads it.

Django caps the fields of a request (``DATA_UPLOAD_MAX_MEMORY_SIZE``) but not its
files, and the CSRF check reads a form's whole body before any view runs. The
only multipart requests the site takes are bot uploads, so a body whose
``Content-Length`` is far over what a bot file may have
(`bots.checks.MAX_SOURCE_BYTES`) is answered 413 at once: JSON under /api/, a
plain sentence for the site's forms.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from bots.checks import MAX_SOURCE_BYTES, MAX_SOURCE_SIZE

MULTIPART_ALLOWANCE = 64 * 1024
"""Room for the form's other fields and the multipart boundaries around the file."""

MAX_MULTIPART_BYTES = MAX_SOURCE_BYTES + MULTIPART_ALLOWANCE


class MultipartSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.content_type == "multipart/form-data" and _length(request) > MAX_MULTIPART_BYTES:
            return _too_large(request)
        return self.get_response(request)


def _length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads such a body as empty


def _too_large(request: HttpRequest) -> HttpResponse:
    message = (
        f"the upload is {_length(request)} bytes: "
        f"a bot file may be at most {MAX_SOURCE_BYTES} bytes ({MAX_SOURCE_SIZE})"
    )
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=413)
    return HttpResponse(
        f"{message}. Go back and choose a smaller file.\n",
        status=413,
        content_type="text/plain; charset=utf-8",
    )
