"""A match's frames (docs/viewer.md), by view: a finished match's kept in the cache.

A finished replay never changes, so its frames are made once per view and
kept as the JSON bytes that are served. Every view of a finished match is
public: its replay is. While a match is played, only its public view exists,
and it is the document the viewer opens with, whatever view it asked for.
"""

from __future__ import annotations

import json

from django.core.cache import cache
from django.http import Http404

from arena.replay import loads_replay
from arena.viewing import FRAMES_FORMAT, FULL, PUBLIC, View, frames_document
from matches.live import match_live_document
from matches.models import Match
from matches.selectors import match_replay_bytes

FRAMES_CACHE_SECONDS = 24 * 3600


def match_frames_json(*, match: Match, view: View) -> bytes:
    """The frames document of the match for `view`, as JSON bytes.

    Http404 while the match has no replay nor progress, or for a seat it does
    not have, or for a seat's view while the match is played.
    """
    if match.status == Match.Status.RUNNING and view in (FULL, PUBLIC):
        live = match_live_document(match=match)
        if live is None:
            raise Http404("the match has not started yet")
        return json.dumps(live, separators=(",", ":")).encode()
    key = f"tavolo:frames:{FRAMES_FORMAT}:{match.pk}:{view}"
    document = cache.get(key)
    if document is None:
        replay = loads_replay(match_replay_bytes(match=match))
        try:
            frames = frames_document(replay, view=view)
        except ValueError as error:  # a seat the match has not, or a replay gone wrong
            raise Http404(str(error)) from None
        document = json.dumps(frames, separators=(",", ":")).encode()
        cache.set(key, document, FRAMES_CACHE_SECONDS)
    return document
