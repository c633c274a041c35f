"""Tournament pages: the list, one tournament (entrants, schedule, standings), entering, the zip."""

from __future__ import annotations

from itertools import groupby
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.requests import SignedInHttpRequest
from bots.models import Bot
from tournaments.downloads import tournament_replays_response
from tournaments.models import Tournament
from tournaments.selectors import (
    tournament_entries,
    tournament_get,
    tournament_list,
    tournament_standings,
    tournament_tables,
)
from tournaments.services import tournament_enter

REFRESH_SECONDS = 15
"""How often a running tournament's page reloads, so standings follow the results."""


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


def tournament(
    request: HttpRequest, slug: str, *, form: EntryForm | None = None, status: int = 200
) -> HttpResponse:
    found = tournament_get(slug=slug)
    tables = tournament_tables(tournament=found)
    entries = tournament_entries(tournament=found)
    names = {entry.number: entry.bot.name for entry in entries}
    rounds = [
        (number, [(table, [names.get(e, "?") for e in table.seats]) for table in group])
        for number, group in groupby(tables, key=lambda table: table.round)
    ]
    candidates = entry_candidates(request, found)
    context = {
        "tournament": found,
        "entries": entries,
        "standings": tournament_standings(tournament=found),
        "rounds": rounds,
        "has_replays": any(table.places is not None for table in tables),
        "refresh_seconds": REFRESH_SECONDS,
        "form": form or (EntryForm(candidates=candidates) if candidates.exists() else None),
    }
    return render(request, "web/tournament.html", context, status=status)


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


def replays(request: HttpRequest, slug: str) -> HttpResponse:
    return tournament_replays_response(tournament_get(slug=slug))
