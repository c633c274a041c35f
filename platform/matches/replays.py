"""A finished match's replay as a download, and as readable lines for the match page."""

from __future__ import annotations

from django.http import Http404, HttpResponse

from arena.replay import ReplayError, loads_replay
from arena.transcript import transcript_lines
from matches.models import Match
from matches.selectors import match_replay_bytes

REPLAY_CONTENT_TYPE = "application/gzip"


def replay_filename(match: Match) -> str:
    return f"tavolo-match-{match.pk}.json.gz"


def replay_response(match: Match) -> HttpResponse:
    """The replay as a ``.json.gz`` attachment; Http404 while the match has none."""
    response = HttpResponse(match_replay_bytes(match=match), content_type=REPLAY_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{replay_filename(match)}"'
    return response


def replay_transcript(match: Match) -> list[str]:
    """One readable line per event of the replay; empty while there is no readable replay."""
    try:
        return list(transcript_lines(loads_replay(match_replay_bytes(match=match))))
    except (Http404, ReplayError):
        return []
