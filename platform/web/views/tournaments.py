"""Tournament pages: the list, one tournament (entrants, schedule, standings), entering, the zip.

A running tournament's page polls `live` for its changing parts (standings and
schedule), rendered by the same template as the page, and swaps them in.
"""

from __future__ import annotations

import hashlib
from itertools import groupby
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import SignedInHttpRequest
from bots.models import Bot
from tournaments.bracket import tournament_bracket
from tournaments.downloads import tournament_replays_response
from tournaments.models import Tournament
from tournaments.selectors import (
    tournament_entries,
    tournament_get,
    tournament_list,
    tournament_pairing,
    tournament_standings,
    tournament_tables,
)
from tournaments.services import tournament_enter
from web.forms import TournamentForm

REFRESH_SECONDS = 15
"""How often a running tournament's page asks for its standings and schedule again."""


class EntryForm(forms.Form):
    bot = forms.ModelChoiceField(queryset=Bot.objects.none(), empty_label=None)

    def __init__(self, *args: Any, candidates: QuerySet[Bot], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["bot"]).queryset = candidates


def entry_candidates(request: HttpRequest, tournament: Tournament) -> QuerySet[Bot]:
    """The user's own bots on the tournament's ladder (the service checks the rest)."""
    if not request.user.is_authenticated:
        return Bot.objects.none()
    return Bot.objects.filter(owner=request.user, ladder=tournament.ladder).order_by("name")


def tournaments(request: HttpRequest) -> HttpResponse:
    sections = [
        (title, list(tournament_list(status=status)))
        for title, status in (
            ("Running", Tournament.Status.RUNNING),
            ("Upcoming", Tournament.Status.UPCOMING),
            ("Finished", Tournament.Status.FINISHED),
        )
    ]
    return render(request, "web/tournaments.html", {"sections": sections})


def live_context(tournament: Tournament) -> dict[str, Any]:
    """What `web/_tournament_live.html` shows, and a stamp that changes whenever that does."""
    tables = tournament_tables(tournament=tournament)
    entries = tournament_entries(tournament=tournament)
    names = {entry.number: entry.bot.name for entry in entries}
    rounds = [
        (number, [(table, [names.get(e, "?") for e in table.seats]) for table in group])
        for number, group in groupby(tables, key=lambda table: table.round)
    ]
    state = [tournament.status, len(entries)] + [
        (table.pk, table.places, table.match_id, table.match and table.match.status)
        for table in tables
    ]
    return {
        "tournament": tournament,
        "entries": entries,
        "standings": tournament_standings(tournament=tournament),
        "bracket": tournament_bracket(tournament=tournament, tables=tables, entries=entries),
        "rounds": rounds,
        "has_replays": any(table.places is not None for table in tables),
        "stamp": hashlib.sha256(repr(state).encode()).hexdigest()[:16],
    }


def tournament(
    request: HttpRequest, slug: str, *, form: EntryForm | None = None, status: int = 200
) -> HttpResponse:
    found = tournament_get(slug=slug)
    candidates = entry_candidates(request, found)
    live = live_context(found)
    context = {
        **live,
        "refresh_seconds": REFRESH_SECONDS,
        "pairing": tournament_pairing(tournament=found, entrants=len(live["entries"])),
        "form": form or (EntryForm(candidates=candidates) if candidates.exists() else None),
    }
    return render(request, "web/tournament.html", context, status=status)


@require_GET
def live(request: HttpRequest, slug: str) -> JsonResponse:
    """The tournament's status and stamp; its live parts' HTML too unless `?stamp=` is current."""
    context = live_context(tournament_get(slug=slug))
    answer = {"status": context["tournament"].status, "stamp": context["stamp"]}
    if request.GET.get("stamp") != context["stamp"]:
        answer["html"] = render_to_string("web/_tournament_live.html", context, request=request)
    return JsonResponse(answer)


@login_required
@require_POST
def enter(request: SignedInHttpRequest, slug: str) -> HttpResponse:
    found = tournament_get(slug=slug)
    form = EntryForm(request.POST, candidates=entry_candidates(request, found))
    if form.is_valid():
        try:
            entry = tournament_enter(
                user=request.user, tournament=found, bot=form.cleaned_data["bot"]
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{entry.bot.name} is entered in {found.name}.")
            return redirect("web:tournament", found.slug)
    return tournament(request, slug, form=form, status=400)


@login_required
def create(request: SignedInHttpRequest) -> HttpResponse:
    """Staff only: a new tournament, refused with the reasons if it could not run."""
    if not request.user.is_staff:
        raise PermissionDenied("only staff create tournaments")
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        created = form.save()
        messages.success(request, f"{created.name} is created; entries open as scheduled.")
        return redirect("web:tournament", created.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "web/tournament_create.html", {"form": form}, status=status)


def replays(request: HttpRequest, slug: str) -> HttpResponse:
    return tournament_replays_response(tournament_get(slug=slug))
