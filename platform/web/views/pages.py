"""The home page, the ladders and the explanation pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena import ratings
from bots.selectors import ladder_standings
from ladders.selectors import ladder_get, ladder_list
from matches.models import Match
from matches.selectors import match_list

TOP_BOTS_ON_HOME = 3
RECENT_MATCHES = 15
RATING_TABLE_GAMES = (0, 1, 5, 10, 19, 20, 50, 100, 500)


def home(request: HttpRequest) -> HttpResponse:
    ladders = [
        (ladder, ladder_standings(ladder=ladder)[:TOP_BOTS_ON_HOME]) for ladder in ladder_list()
    ]
    recent = match_list(status=Match.Status.FINISHED, kinds=(Match.Kind.RANKED,))
    return render(
        request, "web/home.html", {"ladders": ladders, "matches": recent[:RECENT_MATCHES]}
    )


def ladders(request: HttpRequest) -> HttpResponse:
    rows = [(ladder, len(ladder_standings(ladder=ladder))) for ladder in ladder_list()]
    return render(request, "web/ladders.html", {"ladders": rows})


def ladder(request: HttpRequest, slug: str) -> HttpResponse:
    found = ladder_get(slug=slug)
    recent = match_list(ladder=found, kinds=(Match.Kind.RANKED,))[:RECENT_MATCHES]
    return render(
        request,
        "web/ladder.html",
        {"ladder": found, "standings": ladder_standings(ladder=found), "matches": recent},
    )


def ratings_explained(request: HttpRequest) -> HttpResponse:
    table = [
        {
            "games": games,
            "k": ratings.k_factor(games),
            "band": ratings.rating_band(games),
            "provisional": ratings.is_provisional(games),
        }
        for games in RATING_TABLE_GAMES
    ]
    return render(
        request,
        "web/ratings.html",
        {
            "initial_rating": ratings.INITIAL_RATING,
            "k_floor": ratings.K_FLOOR,
            "k_ceiling": ratings.K_CEILING,
            "band_floor": ratings.BAND_FLOOR,
            "band_scale": ratings.BAND_SCALE,
            "provisional_games": ratings.PROVISIONAL_GAMES,
            "table": table,
        },
    )


def write_a_bot(request: HttpRequest) -> HttpResponse:
    server = request.build_absolute_uri("/").rstrip("/")
    return render(request, "web/write_a_bot.html", {"ladders": ladder_list(), "server": server})
