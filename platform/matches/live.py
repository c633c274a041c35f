"""Watching a match while it is played: the worker writes its events so far, and
spectators read them back as the public view's frames.

The events go to the database (`MatchProgress`), which both set-ups share:
PostgreSQL with Redis, and the standalone site's SQLite file with its
filesystem broker, where the web server and the worker are separate processes.
The worker writes at most every `PROGRESS_SECONDS`, the first time once the match has
been played `TAVOLO_LIVE_AFTER_MS` (so a shorter one writes nothing), each time one row with the
events since its last write (one INSERT, however long the match has run; on
PostgreSQL the table is unlogged, so the write does not wait for the disk), and
the viewer polls a little more often than every second, so a spectator is at
most about a second behind the table.
"""

from __future__ import annotations

import logging
from time import monotonic

from django.conf import settings
from django.db import DatabaseError
from django.db.models import F, Q, QuerySet

from arena.engine import JSON, Game
from arena.replay import public_replay
from arena.viewing import PUBLIC, frames_document
from matches.models import Match, MatchProgress

logger = logging.getLogger(__name__)

PROGRESS_SECONDS = 0.3
"""How often at most the worker writes a running match's events."""

OVER = (Match.Status.FINISHED, Match.Status.FAILED)


class ProgressWriter:
    """The runner's `on_progress` for one run of a match: keeps its events so far in the
    database, from `TAVOLO_LIVE_AFTER_MS` after the play starts on, so a match shorter than
    that writes nothing (a spectator is as far behind the table as with any write); and
    clears them once the match is over."""

    def __init__(self, *, match_id: int, attempt: int) -> None:
        self.match_id = match_id
        self.attempt = attempt
        self.header: JSON | None = None
        self.written_at = float("inf")
        self.written = 0
        """How many events are in the database: a failed write leaves them for the next."""
        self.tried = False

    def start(self, *, game: Game, seed: int, bot_names: list[str]) -> None:
        """The match is about to be played, by these bots from this seed."""
        self.header = {
            "game": game.name,
            "rules": game.rules,
            "seats": [{"seat": seat, "bot": name} for seat, name in enumerate(bot_names)],
            "seed": format(seed, "x"),
        }
        self.written_at = monotonic() - PROGRESS_SECONDS + settings.TAVOLO_LIVE_AFTER_MS / 1000

    def __call__(self, events: list[JSON]) -> None:
        now = monotonic()
        if now - self.written_at < PROGRESS_SECONDS or len(events) <= self.written:
            return
        self.written_at = now
        self.tried = True
        try:
            MatchProgress.objects.create(
                match_id=self.match_id,
                attempt=self.attempt,
                start=self.written,
                events=events[self.written :],
                header=None if self.written else self.header,
            )
        except DatabaseError:
            # Spectators miss an update; the match itself must go on.
            logger.warning("could not write the progress of match %s", self.match_id, exc_info=True)
            return
        self.written = len(events)

    def clear(self) -> None:
        """Forget the match's progress once it has finished or failed, if this run or an
        earlier one (lost with its worker) may have written any."""
        if self.tried or self.attempt > 1:
            MatchProgress.objects.filter(match_id=self.match_id).delete()


def progress_orphans_delete() -> int:
    """Delete the pieces no spectator will read: those of matches that are over, which a
    worker could not clear (its database connection was cut), and those of runs lost with
    their worker. The recovery beat calls it (`matches.services.matches_recover`);
    returns how many pieces were deleted."""
    orphans = MatchProgress.objects.filter(
        Q(match__status__in=OVER) | Q(attempt__lt=F("match__attempts"))
    )
    deleted, _ = orphans.delete()
    return deleted


def _current_progress(match: Match) -> QuerySet[MatchProgress]:
    """The pieces written by the match's current attempt: a run lost with its worker
    may have left pieces of its own, of a game that went otherwise."""
    return MatchProgress.objects.filter(match_id=match.pk, attempt=match.attempts)


def match_is_live(*, match: Match) -> bool:
    """True while the match is played and its worker has written its first events."""
    return _current_progress(match).exists()


def _progress_replay(*, match: Match) -> JSON | None:
    """The partial replay the worker has written so far; None before its first write.

    A piece may repeat events of the one before (a write that failed in the
    worker's eyes but was stored): each piece is laid from its own start.
    """
    header: JSON | None = None
    events: list[JSON] = []
    for piece in _current_progress(match).order_by("start", "id"):
        if piece.start > len(events):
            break
        header = piece.header if piece.header is not None else header
        events[piece.start :] = piece.events
    return None if header is None else {**header, "events": events}


def match_live_document(*, match: Match) -> JSON | None:
    """The public frames document of a match being played, so far; None before
    the worker's first write (or once the match is over)."""
    if match.status != Match.Status.RUNNING:
        return None
    progress = _progress_replay(match=match)
    if progress is None:
        return None
    return frames_document(public_replay(progress), view=PUBLIC)


def match_live_steps(*, match: Match, since: int) -> JSON:
    """The public steps of a match from event `since` on, while it is played.

    ``{"finished": bool, "steps": [...], "next": N}``: `finished` once the
    match is over (then the replay has every view); before the worker's first
    write there are no steps yet.
    """
    if match.status in OVER:
        return {"finished": True, "steps": [], "next": since}
    progress = _progress_replay(match=match)
    if progress is None:
        return {"finished": False, "steps": [], "next": 0}
    document = frames_document(public_replay(progress), view=PUBLIC, since=since)
    return {"finished": False, "steps": document["steps"], "next": document["next"]}
