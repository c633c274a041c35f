"""A finished match's replay as a download, gzipped or plain."""

from __future__ import annotations

import gzip

from django.http import HttpResponse

from matches.models import Match
from matches.selectors import match_replay_bytes

REPLAY_CONTENT_TYPE = "application/gzip"
REPLAY_JSON_CONTENT_TYPE = "application/json"


def replay_filename(match: Match, *, compressed: bool = True) -> str:
    return f"tavolo-match-{match.pk}.json" + (".gz" if compressed else "")


def replay_response(match: Match, *, compressed: bool = True) -> HttpResponse:
    """The replay as an attachment, gzipped (``.json.gz``) or plain JSON (``.json``);
    Http404 while the match has none."""
    data = match_replay_bytes(match=match)
    if compressed:
        response = HttpResponse(data, content_type=REPLAY_CONTENT_TYPE)
    else:
        response = HttpResponse(gzip.decompress(data), content_type=REPLAY_JSON_CONTENT_TYPE)
    filename = replay_filename(match, compressed=compressed)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
