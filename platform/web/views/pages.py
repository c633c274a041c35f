"""The home page, the ladders and the explanation pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from bots.checks import MAX_SOURCE_SIZE
from bots.selectors import ladder_retired_bots, ladder_standings
from ladders.ratings import rating_shown, rating_system
from ladders.selectors import ladder_get, ladder_list
from matches.models import Match
from matches.selectors import match_list
from web.caching import visitor_cached
from web.rating_examples import rating_examples
from web.standings import standing_lines

TOP_BOTS_ON_HOME = 3
RECENT_MATCHES = 15
RATING_TABLE_GAMES = (0, 1, 5, 10, 19, 20, 50, 100, 500)


def playing_now(**filters: Any) -> list[Match]:
    """Ranked matches being played now, newest first."""
    return list(match_list(status=Match.Status.RUNNING, kinds=(Match.Kind.RANKED,), **filters))


@visitor_cached
def home(request: HttpRequest) -> HttpResponse:
    ladders = [
        (ladder, ladder_standings(ladder=ladder)[:TOP_BOTS_ON_HOME]) for ladder in ladder_list()
    ]
    recent = match_list(status=Match.Status.FINISHED, kinds=(Match.Kind.RANKED,))
    context = {"ladders": ladders, "playing": playing_now(), "matches": recent[:RECENT_MATCHES]}
    return render(request, "web/home.html", context)


@visitor_cached
def ladders(request: HttpRequest) -> HttpResponse:
    rows = [(ladder, len(ladder_standings(ladder=ladder))) for ladder in ladder_list()]
    return render(request, "web/ladders.html", {"ladders": rows})


@visitor_cached
def ladder(request: HttpRequest, slug: str) -> HttpResponse:
    found = ladder_get(slug=slug)
    recent = match_list(ladder=found, kinds=(Match.Kind.RANKED,), status=Match.Status.FINISHED)
    context = {
        "ladder": found,
        "lines": standing_lines(ladder_standings(ladder=found)),
        "retired": ladder_retired_bots(ladder=found),
        "playing": playing_now(ladder=found),
        "matches": recent[:RECENT_MATCHES],
    }
    return render(request, "web/ladder.html", context)


def ratings_explained(request: HttpRequest) -> HttpResponse:
    """The chosen rating system's maths, and how its band shrinks as a version plays."""
    system = rating_system()
    return render(
        request,
        "web/ratings.html",
        {
            "system": system,
            "maths": f"web/ratings/{system.name}.html",
            "initial": rating_shown(system.initial()),
            "table": rating_examples(system, RATING_TABLE_GAMES),
        },
    )


def write_a_bot(request: HttpRequest) -> HttpResponse:
    server = request.build_absolute_uri("/").rstrip("/")
    context = {"ladders": ladder_list(), "server": server, "max_source_size": MAX_SOURCE_SIZE}
    return render(request, "web/write_a_bot.html", context)
