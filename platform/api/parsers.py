"""The API's JSON parser, which measures a body before it parses it.

(The API's exceptions import this module's `BodyTooLarge`: DRF reads its parser
setting while `rest_framework.views` loads, so this module imports no view.)

DRF's parser reads the whole body, however long, and Python's JSON decoder
recurses once per nested array or object: 10 KB of ``[`` exhaust the stack
and would be a 500. Here a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413
before it is parsed, and one nested deeper than `MAX_JSON_DEPTH` a 400 that
says so. No request of the API needs more than a few levels.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from io import BytesIO
from itertools import accumulate
from typing import IO, Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from bots.checks import MAX_SOURCE_BYTES, MAX_SOURCE_SIZE


class BodyTooLarge(exceptions.APIException):
    """The request body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: unread, and refused."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = (
        f"the request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes: "
        f"a bot file may be at most {MAX_SOURCE_BYTES} bytes ({MAX_SOURCE_SIZE})"
    )
    default_code = "too_large"


MAX_JSON_DEPTH = 32
"""Arrays and objects inside one another that a request body may have."""

JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
NOT_A_BRACKET = re.compile(rb"[^\[\]{}]")


def json_depth(body: bytes) -> int:
    """How deep arrays and objects nest in `body`, brackets inside strings not counted."""
    brackets = NOT_A_BRACKET.sub(b"", JSON_STRING.sub(b"", body))
    steps = (1 if bracket in b"[{" else -1 for bracket in brackets)
    return max(accumulate(steps, initial=0))


class BoundedJSONParser(JSONParser):
    """JSON bodies of at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes and `MAX_JSON_DEPTH` levels."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise BodyTooLarge()
        depth = json_depth(body)
        if depth > MAX_JSON_DEPTH:
            raise ParseError(
                f"the JSON body nests {depth} levels deep: at most {MAX_JSON_DEPTH} are allowed"
            )
        return super().parse(BytesIO(body), media_type, parser_context)
