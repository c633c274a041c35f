"""The match viewer's data (docs/viewer.md): frames by view, the owner's logs by
decision, and the steps of a match being played."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from arena.viewing import FULL, PUBLIC, View
from matches.frames import match_frames_json
from matches.live import match_live_steps
from matches.models import Match
from matches.selectors import match_get, match_log_entries_for

JSON_CONTENT_TYPE = "application/json"


def _frames(match_id: int, view: View) -> HttpResponse:
    match = match_get(match_id=match_id)
    response = HttpResponse(
        match_frames_json(match=match, view=view), content_type=JSON_CONTENT_TYPE
    )
    if match.status == Match.Status.FINISHED:
        response["Cache-Control"] = "public, max-age=3600"
    else:
        add_never_cache_headers(response)
    return response


@require_GET
def full_frames(request: HttpRequest, match_id: int) -> HttpResponse:
    return _frames(match_id, FULL)


@require_GET
def public_frames(request: HttpRequest, match_id: int) -> HttpResponse:
    return _frames(match_id, PUBLIC)


@require_GET
def seat_frames(request: HttpRequest, match_id: int, seat: int) -> HttpResponse:
    return _frames(match_id, seat)


@require_GET
@never_cache
def logs(request: HttpRequest, match_id: int) -> HttpResponse:
    """What the user's bots printed, decision by decision: owner and staff only (404 otherwise)."""
    match = match_get(match_id=match_id)
    return JsonResponse(match_log_entries_for(user=request.user, match=match))


@require_GET
@never_cache
def live(request: HttpRequest, match_id: int) -> HttpResponse:
    """The public steps of a running match from event ``?since=N`` on."""
    since = request.GET.get("since", "0")
    if not since.isdigit() or len(since) > 9:
        return JsonResponse({"detail": "since must be a whole number of events"}, status=400)
    steps = match_live_steps(match=match_get(match_id=match_id), since=int(since))
    return JsonResponse(steps)
