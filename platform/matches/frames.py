"""A match's frames (docs/viewer.md), by view: a finished match's made once and kept.

A finished replay never changes, so its frames are made once per view and
kept gzipped, as they are served to every client that takes gzip (each step
carries the whole table, so a document compresses 30 to 40 times). Every view of a finished match is
public: its replay is. While a match is played, only its public view exists,
and it is the document the viewer opens with, whatever view it asked for.

The full view, which the viewer opens a finished match with, is made when
first asked for and stored beside the replay; every process then keeps it in
the cache, as it keeps the other views. Most ranked matches are never
watched, so a match worker spends nothing on frames (about a tenth of the
CPU the site spends on a Mia match), and a first spectator waits for one
re-simulation of the replay (docs/benchmarks.md, `bench/frames.py`).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass

from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import Http404

from arena.engine import JSON
from arena.replay import loads_replay
from arena.viewing import FRAMES_FORMAT, FULL, PUBLIC, View, frames_document
from matches.live import match_live_document
from matches.models import Match
from matches.selectors import match_replay_bytes

FRAMES_CACHE_SECONDS = 24 * 3600
GZIP_LEVEL = 6
STORED_VIEWS: tuple[View, ...] = (FULL,)
"""The views stored with a finished match; the others are made when first asked for."""


@dataclass(frozen=True)
class FramesJson:
    """A frames document as JSON bytes, gzipped or not."""

    body: bytes
    gzipped: bool


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
        document = _stored(match.pk, view) if view in STORED_VIEWS else None
        if document is None:
            document = _made(match, view)
            if view in STORED_VIEWS:
                _store(match.pk, view, document)
        cache.set(key, document, FRAMES_CACHE_SECONDS)
    return FramesJson(document, gzipped=True)


def match_frames_names(*, match_ids: list[int]) -> list[str]:
    """The storage names of the frames kept with these matches (whether stored or not)."""
    return [_name(match_id, view) for match_id in match_ids for view in STORED_VIEWS]


def _made(match: Match, view: View) -> bytes:
    """The view's frames, gzipped JSON; Http404 for a seat the match has not."""
    replay = loads_replay(match_replay_bytes(match=match))
    try:
        frames = frames_document(replay, view=view)
    except ValueError as error:  # a seat the match has not, or a replay gone wrong
        raise Http404(str(error)) from None
    return _gzipped(frames)


def _gzipped(frames: JSON) -> bytes:
    plain = json.dumps(frames, separators=(",", ":"), check_circular=False).encode()
    return gzip.compress(plain, GZIP_LEVEL, mtime=0)


def _name(match_id: int, view: View) -> str:
    return f"frames/{FRAMES_FORMAT}/{match_id}-{view}.json.gz"


def _stored(match_id: int, view: View) -> bytes | None:
    try:
        with default_storage.open(_name(match_id, view), "rb") as stored:
            data: bytes = stored.read()
            return data
    except FileNotFoundError:
        return None


def _store(match_id: int, view: View, document: bytes) -> None:
    """Store the document under its name; a copy stored meanwhile by another is kept."""
    name = _name(match_id, view)
    saved = default_storage.save(name, ContentFile(document))
    if saved != name:  # another process stored it first: the storage chose another name
        default_storage.delete(saved)
