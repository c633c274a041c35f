"""A finished match's replay as a download, and as readable lines for the match page."""

from __future__ import annotations

import gzip

from django.http import Http404, HttpResponse

from arena.replay import ReplayError, loads_replay
from arena.transcript import transcript_lines
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


def replay_transcript(match: Match) -> list[str]:
    """One readable line per event of the replay; empty while there is no readable replay."""
    try:
        return list(transcript_lines(loads_replay(match_replay_bytes(match=match))))
    except (Http404, ReplayError):
        return []
