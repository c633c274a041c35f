"""Tournaments over the API: lists, a tournament's page of data, entering, the replays' zip."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from arena.tournaments import make_format
from bots.models import Bot
from ladders.models import Ladder
from tournaments.models import Entry, Tournament


def client_of(user: AbstractUser | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def test_the_list_filters_by_status_and_refuses_an_unknown_one(open_tournament: Callable) -> None:
    open_tournament()
    assert [t["slug"] for t in client_of(None).get("/api/tournaments/").json()["results"]] == [
        "spring-cup"
    ]
    assert client_of(None).get("/api/tournaments/?status=finished").json()["results"] == []
    answer = client_of(None).get("/api/tournaments/?status=someday")
    assert answer.status_code == 400 and "status is one of" in str(answer.json())


def test_an_owner_enters_a_bot_over_the_api(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    open_tournament()
    answer = client_of(alice).post(
        "/api/tournaments/spring-cup/entries/", {"bot": muggins_bots[0].pk}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["bot"] == "first" and answer.json()["version"] is None
    detail = client_of(None).get("/api/tournaments/spring-cup/").json()
    assert [entry["bot"] for entry in detail["entries"]] == ["first"]


@pytest.mark.parametrize("problem", ["wrong game", "twice", "late", "no such bot"])
def test_bad_entries_are_a_400_with_the_reason_and_change_nothing(
    alice: AbstractUser,
    muggins_bots: list[Bot],
    mia_ladder: Ladder,
    accepted_bot: Callable,
    open_tournament: Callable,
    problem: str,
) -> None:
    tournament = open_tournament()
    Entry.objects.create(tournament=tournament, bot=muggins_bots[0])
    bot_id = {
        "wrong game": lambda: accepted_bot(owner=alice, ladder=mia_ladder, name="dice").pk,
        "twice": lambda: muggins_bots[0].pk,
        "late": lambda: muggins_bots[0].pk,
        "no such bot": lambda: 999_999,
    }[problem]()
    if problem == "late":
        Tournament.objects.filter(pk=tournament.pk).update(
            entries_open_at=tournament.entries_open_at - timedelta(hours=3),
            entries_close_at=tournament.entries_open_at - timedelta(hours=2),
        )
    answer = client_of(alice).post(
        "/api/tournaments/spring-cup/entries/", {"bot": bot_id}, format="json"
    )
    assert answer.status_code == 400
    expected = {
        "wrong game": "played on",
        "twice": "already entered",
        "late": "closed",
        "no such bot": "999999",
    }[problem]
    assert expected in str(answer.json())
    assert Entry.objects.count() == 1


def test_entering_needs_an_account(muggins_bots: list[Bot], open_tournament: Callable) -> None:
    open_tournament()
    answer = client_of(None).post(
        "/api/tournaments/spring-cup/entries/", {"bot": muggins_bots[0].pk}, format="json"
    )
    assert answer.status_code == 401 and not Entry.objects.exists()


@pytest.mark.jail
def test_a_finished_tournament_shows_standings_tables_and_every_replay_in_one_zip(
    finished_tournament: Tournament,
) -> None:
    detail = client_of(None).get("/api/tournaments/spring-cup/").json()
    assert detail["status"] == "finished" and detail["seed"] == finished_tournament.seed
    assert [line["rank"] for line in detail["standings"]] == [1, 2, 3]
    assert [entry["version"] for entry in detail["entries"]] == [1, 1, 1]
    assert len(detail["tables"]) == 6
    local = make_format("round-robin", entrants=3, seats=2, repeat=2, seed=int(detail["seed"], 16))
    assert {t["key"]: t["seats"] for t in detail["tables"]} == {
        t.key: list(t.seats) for t in local.next_tables([])
    }  # the command line plays the very schedule the server played
    assert all(table["replay_url"] for table in detail["tables"])
    answer = client_of(None).get(detail["replays_url"])
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(answer.content))
    assert len(archive.namelist()) == 6


def test_a_zip_before_any_replay_is_a_404(open_tournament: Callable) -> None:
    open_tournament()
    assert client_of(None).get("/api/tournaments/spring-cup/replays.zip").status_code == 404
    assert client_of(None).get("/api/tournaments/spring-cup/").json()["seed"] is None
    assert client_of(None).get("/api/tournaments/nothing/").status_code == 404
