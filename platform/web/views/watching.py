"""The match viewer's data (docs/viewer.md): frames by view, the owner's logs by
decision, and the steps of a match being played."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from arena.viewing import FULL, PUBLIC, View
from matches.frames import FramesJson, match_frames_json
from matches.live import match_live_steps
from matches.models import Match
from matches.selectors import match_get, match_log_entries_for, match_state_get
from web.caching import WAIT_SECONDS, kept_for_everyone
from web.encoding import encoded_response
from web.single_flight import leading, wait_for

JSON_CONTENT_TYPE = "application/json"


def _frames(request: HttpRequest, match_id: int, view: View) -> HttpResponse:
    """The frames document, sent gzipped as it is kept when the client takes gzip."""
    match = match_state_get(match_id=match_id)
    document = _frames_json(match, view)
    if match.status == Match.Status.FINISHED and document.gzipped:
        # The same for every client: kept for visitors, who are answered it early
        # (web.visitor_copies).
        response = kept_for_everyone(request, document.body, JSON_CONTENT_TYPE)
        response["Cache-Control"] = "public, max-age=3600"
        return response
    response = encoded_response(
        request, document.body, gzipped=document.gzipped, content_type=JSON_CONTENT_TYPE
    )
    add_never_cache_headers(response)
    return response


def _frames_json(match: Match, view: View) -> FramesJson:
    """The match's frames; a finished match's made by one request of this process at a
    time while the others wait, then find them in the cache."""
    if match.status != Match.Status.FINISHED:
        return match_frames_json(match=match, view=view)
    key = f"tavolo:frames-making:{match.pk}:{view}"
    with leading(key) as makes:
        if makes:
            return match_frames_json(match=match, view=view)
    wait_for(key, WAIT_SECONDS)
    return match_frames_json(match=match, view=view)


@require_GET
def full_frames(request: HttpRequest, match_id: int) -> HttpResponse:
    return _frames(request, match_id, FULL)


@require_GET
def public_frames(request: HttpRequest, match_id: int) -> HttpResponse:
    return _frames(request, match_id, PUBLIC)


@require_GET
def seat_frames(request: HttpRequest, match_id: int, seat: int) -> HttpResponse:
    return _frames(request, match_id, seat)


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
    steps = match_live_steps(match=match_state_get(match_id=match_id), since=int(since))
    return JsonResponse(steps)
