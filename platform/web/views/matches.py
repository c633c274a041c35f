"""A match's page and its replay download."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from api.replays import replay_response, replay_transcript
from matches.models import Match
from matches.selectors import match_get


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_get(match_id=match_id)
    changes = {change.bot_id: change for change in match.rating_changes.all()}
    seats = [(seat, changes.get(seat.bot_id)) for seat in match.seats.all()]
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
