"""A match's frames (docs/viewer.md), by view: a finished match's kept in the cache.

A finished replay never changes, so its frames are made once per view and
kept gzipped, as they are served to every client that takes gzip (each step
carries the whole table, so a document compresses 30 to 40 times). Every view of a finished match is
public: its replay is. While a match is played, only its public view exists,
and it is the document the viewer opens with, whatever view it asked for.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass

from django.core.cache import cache
from django.http import Http404

from arena.replay import loads_replay
from arena.viewing import FRAMES_FORMAT, FULL, PUBLIC, View, frames_document
from matches.live import match_live_document
from matches.models import Match
from matches.selectors import match_replay_bytes

FRAMES_CACHE_SECONDS = 24 * 3600


GZIP_LEVEL = 6


@dataclass(frozen=True)
class FramesJson:
    """A frames document as JSON bytes, gzipped or not."""

    body: bytes
    gzipped: bool

    def plain(self) -> bytes:
        return gzip.decompress(self.body) if self.gzipped else self.body


def match_frames_json(*, match: Match, view: View) -> FramesJson:
    """The frames document of the match for `view`, as JSON bytes: gzipped once finished.

    Http404 while the match has no replay nor progress, or for a seat it does
    not have, or for a seat's view while the match is played.
    """
    if match.status == Match.Status.RUNNING and view in (FULL, PUBLIC):
        live = match_live_document(match=match)
        if live is None:
            raise Http404("the match has not started yet")
        return FramesJson(json.dumps(live, separators=(",", ":")).encode(), gzipped=False)
    key = f"tavolo:frames-gz:{FRAMES_FORMAT}:{match.pk}:{view}"
    document = cache.get(key)
    if document is None:
        replay = loads_replay(match_replay_bytes(match=match))
        try:
            frames = frames_document(replay, view=view)
        except ValueError as error:  # a seat the match has not, or a replay gone wrong
            raise Http404(str(error)) from None
        plain = json.dumps(frames, separators=(",", ":")).encode()
        document = gzip.compress(plain, GZIP_LEVEL, mtime=0)
        cache.set(key, document, FRAMES_CACHE_SECONDS)
    return FramesJson(document, gzipped=True)
