"""The API's URLs under /api/, with the OpenAPI schema and its interactive docs."""

from __future__ import annotations

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from api.docs import RedocView, SwaggerView
from api.exceptions import endpoint_not_found
from api.views.accounts import MeView, TokenView
from api.views.bots import (
    BotDetailView,
    BotListView,
    BotRetireView,
    BotUnretireView,
    RatingHistoryView,
    VersionDetailView,
    VersionListView,
    VersionLogView,
    VersionSourceView,
)
from api.views.ladders import LadderDetailView, LadderListView, StandingsView
from api.views.matches import (
    ChallengeListView,
    MatchDetailView,
    MatchListView,
    ReplayView,
    SeatLogView,
)
from api.views.tournaments import (
    EntryListView,
    ReplaysZipView,
    TournamentDetailView,
    TournamentListView,
)

app_name = "api"

VERSION = "bots/<int:bot_id>/versions/<int:number>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SwaggerView.as_view(), name="docs"),
    path("docs/redoc/", RedocView.as_view(), name="redoc"),
    path("token/", TokenView.as_view(), name="token"),
    path("me/", MeView.as_view(), name="me"),
    path("ladders/", LadderListView.as_view(), name="ladder-list"),
    path("ladders/<slug:slug>/", LadderDetailView.as_view(), name="ladder-detail"),
    path("ladders/<slug:slug>/standings/", StandingsView.as_view(), name="ladder-standings"),
    path("bots/", BotListView.as_view(), name="bot-list"),
    path("bots/<int:bot_id>/", BotDetailView.as_view(), name="bot-detail"),
    path("bots/<int:bot_id>/retire/", BotRetireView.as_view(), name="bot-retire"),
    path("bots/<int:bot_id>/unretire/", BotUnretireView.as_view(), name="bot-unretire"),
    path("bots/<int:bot_id>/ratings/", RatingHistoryView.as_view(), name="rating-history"),
    path("bots/<int:bot_id>/versions/", VersionListView.as_view(), name="version-list"),
    path(VERSION, VersionDetailView.as_view(), name="version-detail"),
    path(f"{VERSION}source/", VersionSourceView.as_view(), name="version-source"),
    path(f"{VERSION}log/", VersionLogView.as_view(), name="version-log"),
    path("matches/", MatchListView.as_view(), name="match-list"),
    path("matches/<int:match_id>/", MatchDetailView.as_view(), name="match-detail"),
    path("matches/<int:match_id>/replay/", ReplayView.as_view(), name="match-replay"),
    path("matches/<int:match_id>/seats/<int:seat>/log/", SeatLogView.as_view(), name="seat-log"),
    path("challenges/", ChallengeListView.as_view(), name="challenge-list"),
    path("tournaments/", TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/<slug:slug>/", TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<slug:slug>/entries/", EntryListView.as_view(), name="tournament-entries"),
    path(
        "tournaments/<slug:slug>/replays.zip", ReplaysZipView.as_view(), name="tournament-replays"
    ),
    re_path(r"^", endpoint_not_found),
]
