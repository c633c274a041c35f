"""A match's page and its replay download."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from bots.selectors import bot_version_can_inspect
from matches.models import Match
from matches.replays import replay_response, replay_transcript
from matches.selectors import match_get, match_seat_log_for


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_get(match_id=match_id)
    changes = {change.bot_id: change for change in match.rating_changes.all()}
    seats = [
        (
            seat,
            changes.get(seat.bot_id),
            bot_version_can_inspect(user=request.user, version=seat.bot_version),
        )
        for seat in match.seats.all()
    ]
    finished = match.status == Match.Status.FINISHED and bool(match.replay)
    context = {
        "match": match,
        "seats": seats,
        "has_replay": finished,
        "events": replay_transcript(match) if finished else [],
    }
    return render(request, "web/match.html", context)


def replay_download(request: HttpRequest, match_id: int) -> HttpResponse:
    return replay_response(match_get(match_id=match_id))


def replay_json(request: HttpRequest, match_id: int) -> HttpResponse:
    return replay_response(match_get(match_id=match_id), compressed=False)


def replay_old_address(request: HttpRequest, match_id: int) -> HttpResponse:
    """The download's first address, kept for links made before it had a file name."""
    return redirect("web:replay", match_id, permanent=True)


def seat_log(request: HttpRequest, match_id: int, seat: int) -> HttpResponse:
    """What one seat's bot wrote to stderr: its owner and staff only (404 otherwise)."""
    match = match_get(match_id=match_id)
    found = match.seats.select_related("bot").filter(seat=seat).first()
    if found is None:
        raise Http404(f"match {match_id} has no seat {seat}")
    log = match_seat_log_for(user=request.user, seat=found)
    return render(request, "web/seat_log.html", {"match": match, "seat": found, "log": log})
