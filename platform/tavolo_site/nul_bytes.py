"""Refuse a request with a NUL byte in its path, its query or its form fields: a 400.

No name, slug or form value of the site may hold a NUL byte, and PostgreSQL
cannot even compare one with a text column: a lookup by such a value raises
`psycopg.DataError` (a 500) where SQLite would answer 404. The forms' and the
API's fields refuse NUL bytes themselves; this middleware answers for
everything a view reads unchecked (the path's segments and the query's
values), and for a form's fields before any view or throttle reads them.
A file's content is not a form field and is left to its own checks; a
multipart body is read only after `tavolo_site.middleware` has measured it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, QueryDict

from tavolo_site.outages import error_response

NUL = "\x00"

FORM_CONTENT_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

REFUSAL = "a NUL byte (%00) may not be part of a request's path, query or form fields"


def _holds_nul(fields: QueryDict) -> bool:
    return any(NUL in key or NUL in "".join(values) for key, values in fields.lists())


def has_nul_byte(request: HttpRequest) -> bool:
    """Whether the request's path, query or form fields hold a NUL byte."""
    if NUL in request.path or _holds_nul(request.GET):
        return True
    return request.content_type in FORM_CONTENT_TYPES and _holds_nul(request.POST)


class NulByteRefusalMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_nul_byte(request):
            return error_response(request, 400, REFUSAL)
        return self.get_response(request)
