"""Reads of matches: lists, replays, seat logs for owners."""

from __future__ import annotations

import gzip
import json

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet
from django.http import Http404

from arena.engine import JSON
from arena.replay import RAISED, dumps_replay, loads_replay, public_replay
from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match, MatchSeat

BOT_RESULTS = ("won", "lost", "crashed")
"""How a bot's matches can be filtered by its own result: first place, any other, crashed."""


def match_list(
    *,
    ladder: Ladder | None = None,
    bot: Bot | None = None,
    kinds: tuple[str, ...] | None = None,
    status: str | None = None,
    bot_result: str | None = None,
) -> QuerySet[Match]:
    """Matches, newest first, optionally of one ladder, one bot, some kinds or one status.

    With a bot, `bot_result` keeps the matches it won, lost (finished below
    first place) or crashed in.
    """
    seats = MatchSeat.objects.select_related("bot__owner", "bot_version")
    matches = Match.objects.select_related("ladder").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    if ladder is not None:
        matches = matches.filter(ladder=ladder)
    if bot is not None:
        bot_seats = MatchSeat.objects.filter(bot=bot)
        if bot_result == "won":
            bot_seats = bot_seats.filter(place=1)
        elif bot_result == "lost":
            bot_seats = bot_seats.filter(place__gt=1)
        elif bot_result == "crashed":
            bot_seats = bot_seats.filter(crashed=True)
        matches = matches.filter(id__in=bot_seats.values("match_id"))
    if kinds is not None:
        matches = matches.filter(kind__in=kinds)
    if status is not None:
        matches = matches.filter(status=status)
    return matches


def match_get(*, match_id: int) -> Match:
    """One match with its seats, or Http404."""
    match = match_list().filter(id=match_id).first()
    if match is None:
        raise Http404(f"there is no match {match_id}")
    return match


def match_state_get(*, match_id: int) -> Match:
    """One match's status and replay, without its seats, or Http404: what the viewer's
    frames and live steps need, asked for by every spectator many times a minute."""
    match = Match.objects.only("id", "status", "attempts", "replay").filter(id=match_id).first()
    if match is None:
        raise Http404(f"there is no match {match_id}")
    return match


def match_replay_bytes(*, match: Match) -> bytes:
    """The finished match's gzipped replay as anyone may read it; Http404 if there is none (yet).

    The stored file keeps what the runner wrote; the served one gives a bot's
    exception only by its type (`arena.replay.public_replay`), its message being
    in the owner's log. Old and new replays are served alike.
    """
    if match.status != Match.Status.FINISHED or not match.replay:
        raise Http404("this match has no replay yet")
    with match.replay.open("rb") as replay:
        return public_replay_bytes(replay.read())


def public_replay_bytes(stored: bytes) -> bytes:
    """A gzipped replay file, with its reasons made public; the same bytes if none changes."""
    text = gzip.decompress(stored)
    if RAISED.encode() not in text:
        return stored
    replay = loads_replay(text)
    public = public_replay(replay)
    return stored if public is replay else dumps_replay(public, compress=True)


def match_seat_log_for(*, user: User | AnonymousUser, seat: MatchSeat) -> str:
    """A seat's bot log for the bot's owner or staff; Http404 for anyone else."""
    allowed = user.is_authenticated and (user.is_staff or seat.bot.owner_id == user.pk)
    if not allowed:
        raise Http404("no such log")
    if not seat.log:
        return ""
    with seat.log.open("rb") as log:
        data: bytes = log.read()
    return data.decode(errors="replace")


def match_log_entries_for(*, user: User | AnonymousUser, match: Match) -> JSON:
    """What each of the user's bots printed while deciding, decision by decision:
    ``{"seats": {"0": [{"index": 14, "text": "..."}]}}``, for the seats of bots
    the user owns (every seat for staff); Http404 if there is none.
    """
    if not user.is_authenticated:
        raise Http404("no such log")
    seats = [seat for seat in match.seats.all() if user.is_staff or seat.bot.owner_id == user.pk]
    if not seats or match.status != Match.Status.FINISHED:
        raise Http404("no such log")
    entries: JSON = {}
    for seat in seats:
        entries[str(seat.seat)] = []
        if seat.log_entries:
            with seat.log_entries.open("rb") as stored:
                entries[str(seat.seat)] = json.loads(stored.read())
    return {"seats": entries}
