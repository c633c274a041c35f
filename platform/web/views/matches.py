"""A match's page and its replay download."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from bots.selectors import bot_version_can_inspect
from matches.live import match_is_live
from matches.models import Match
from matches.replays import replay_response
from matches.selectors import match_get, match_list, match_seat_log_for
from web.caching import visitor_cached
from web.forms import MatchFilterForm

MATCHES_PER_PAGE = 50


@visitor_cached
def match_list_page(request: HttpRequest) -> HttpResponse:
    """Every match, newest first, filtered by ladder, bot, kind, status and the bot's result.

    Pages go by number without counting every match: one row more than a page
    is read to know whether there is a next one.
    """
    form = MatchFilterForm(request.GET or None)
    if request.GET and not form.is_valid():
        return render(request, "web/matches.html", {"form": form, "matches": []}, status=400)
    wanted = form.cleaned_data if request.GET else {}
    page = wanted.get("page") or 1
    matches = match_list(
        ladder=wanted.get("ladder"),
        bot=wanted.get("bot"),
        kinds=(wanted["kind"],) if wanted.get("kind") else None,
        status=wanted.get("status") or None,
        bot_result=wanted.get("result") or None,
    )
    start = (page - 1) * MATCHES_PER_PAGE
    rows = list(matches[start : start + MATCHES_PER_PAGE + 1])
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "matches": rows[:MATCHES_PER_PAGE],
        "page": page,
        "previous_page": page - 1 if page > 1 else None,
        "next_page": page + 1 if len(rows) > MATCHES_PER_PAGE else None,
        "query": query.urlencode(),
    }
    return render(request, "web/matches.html", context)


@visitor_cached
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
    live = match.status == Match.Status.RUNNING and match_is_live(match=match)
    waiting = match.status == Match.Status.QUEUED or (
        match.status == Match.Status.RUNNING and not live
    )
    context = {
        "match": match,
        "seats": seats,
        "has_replay": finished,
        "viewer": _viewer_urls(match, finished, live, any(readable for *_, readable in seats)),
        "waiting": waiting,
    }
    response = render(request, "web/match.html", context)
    if match.status != Match.Status.FINISHED:  # it changes, or reloads itself, until it ends
        add_never_cache_headers(response)
    return response


def _viewer_urls(match: Match, finished: bool, live: bool, logs: bool) -> dict[str, str] | None:
    """The viewer's data addresses (docs/viewer.md); None when there is nothing to show.

    While the match is played there are the public view and the live steps;
    once finished, every view, and the logs for a user who may read one.
    """
    if not (finished or live):
        return None
    urls = {
        "frames": reverse("web:frames_full", args=[match.pk]),
        "public": reverse("web:frames_public", args=[match.pk]),
    }
    if live:
        urls["live"] = reverse("web:live", args=[match.pk])
        return urls
    seat_zero = reverse("web:frames_seat", args=[match.pk, 0])
    urls["seat"] = seat_zero.replace("seat-0.json", "seat-{seat}.json")
    if logs:
        urls["logs"] = reverse("web:logs", args=[match.pk])
    return urls


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
