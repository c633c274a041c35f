"""Content coding: which clients take gzip, and responses sent in it."""

from __future__ import annotations

import gzip

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers


def takes_gzip(request: HttpRequest) -> bool:
    """Whether Accept-Encoding names gzip (or *) with a weight above 0."""
    for coding in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        name, *parameters = (part.strip().lower() for part in coding.split(";"))
        weights = [part[2:] for part in parameters if part.startswith("q=")]
        if name in ("gzip", "*") and not (weights and _weight(weights[0]) == 0):
            return True
    return False


def _weight(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


def encoded_response(
    request: HttpRequest, body: bytes, *, gzipped: bool, content_type: str
) -> HttpResponse:
    """`body` (gzip-compressed when `gzipped`) as the client takes it: as it is to a
    client that takes gzip, decompressed to one that does not; marked as varying with
    Accept-Encoding either way, for caches on the way."""
    send_gzipped = gzipped and takes_gzip(request)
    content = body if send_gzipped or not gzipped else gzip.decompress(body)
    response = HttpResponse(content, content_type=content_type)
    if send_gzipped:
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    return response
