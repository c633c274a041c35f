"""The site's pages."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from web.views import accounts, bots, matches, pages, tournaments, watching

app_name = "web"

MATCH = "matches/<int:match_id>/"

urlpatterns = [
    path("", pages.home, name="home"),
    path("ladders/", pages.ladders, name="ladders"),
    path("ladders/<slug:slug>/", pages.ladder, name="ladder"),
    path("ratings/", pages.ratings_explained, name="ratings"),
    path("tournaments/", tournaments.tournaments, name="tournaments"),
    path("tournaments/new/", tournaments.create, name="tournament_create"),
    path("tournaments/<slug:slug>/", tournaments.tournament, name="tournament"),
    path("tournaments/<slug:slug>/live.json", tournaments.live, name="tournament_live"),
    path("tournaments/<slug:slug>/enter/", tournaments.enter, name="tournament_enter"),
    path("tournaments/<slug:slug>/replays.zip", tournaments.replays, name="tournament_replays"),
    path("write-a-bot/", pages.write_a_bot, name="write_a_bot"),
    path("signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
    path("account/", accounts.account, name="account"),
    path("account/token/", accounts.token_regenerate, name="token_regenerate"),
    path("account/bots/", accounts.bot_create, name="bot_create"),
    path("bots/<int:bot_id>/", bots.bot_page, name="bot"),
    path("bots/<int:bot_id>/upload/", bots.version_upload, name="version_upload"),
    path("bots/<int:bot_id>/challenge/", bots.challenge, name="challenge"),
    path("bots/<int:bot_id>/delete/", bots.delete, name="bot_delete"),
    path("bots/<int:bot_id>/retire/", bots.retire, name="bot_retire"),
    path("bots/<int:bot_id>/unretire/", bots.unretire, name="bot_unretire"),
    path("bots/<int:bot_id>/versions/<int:number>/", bots.version, name="version"),
    path("users/<str:username>/", accounts.user_page, name="user"),
    path("matches/", matches.match_list_page, name="matches"),
    path("matches/<int:match_id>/", matches.match_page, name="match"),
    path("matches/<int:match_id>/replay/", matches.replay_old_address),
    path("matches/<int:match_id>/replay.json", matches.replay_json, name="replay_json"),
    path("matches/<int:match_id>/replay.json.gz", matches.replay_download, name="replay"),
    path("matches/<int:match_id>/frames/full.json", watching.full_frames, name="frames_full"),
    path("matches/<int:match_id>/frames/public.json", watching.public_frames, name="frames_public"),
    path(
        "matches/<int:match_id>/frames/seat-<int:seat>.json",
        watching.seat_frames,
        name="frames_seat",
    ),
    path("matches/<int:match_id>/logs.json", watching.logs, name="logs"),
    path("matches/<int:match_id>/live.json", watching.live, name="live"),
    path("matches/<int:match_id>/seats/<int:seat>/log/", matches.seat_log, name="seat_log"),
]
