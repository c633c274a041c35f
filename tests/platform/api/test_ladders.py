"""Ladders and standings over the API (public reads)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from bots.models import Bot
from ladders.models import Ladder


def test_anyone_lists_the_ladders(anonymous: APIClient, ladders: dict[str, Ladder]) -> None:
    answer = anonymous.get("/api/ladders/")
    assert answer.status_code == 200
    assert {ladder["slug"] for ladder in answer.json()["results"]} == set(ladders)


def test_a_ladder_shows_its_game_and_table_size(
    anonymous: APIClient, ladders: dict[str, Ladder]
) -> None:
    body = anonymous.get("/api/ladders/muggins-4/").json()
    assert (body["game"], body["seats"], body["active"]) == ("muggins", 4, True)


def test_an_unknown_ladder_is_a_404_with_its_name(anonymous: APIClient, db: None) -> None:
    answer = anonymous.get("/api/ladders/nowhere/")
    assert answer.status_code == 404
    assert "nowhere" in answer.json()["detail"]


def test_standings_rank_by_rating_with_band_and_provisional_mark(
    anonymous: APIClient,
    alice: AbstractUser,
    bob: AbstractUser,
    accepted_bot: Callable[..., Bot],
    mia_ladder: Ladder,
) -> None:
    accepted_bot(
        owner=alice, ladder=mia_ladder, name="veteran", rating=1700, games=20, deviation=60
    )
    accepted_bot(owner=bob, ladder=mia_ladder, name="rookie", rating=1800, games=4, deviation=120)
    Bot.objects.filter(ladder=mia_ladder, kind=Bot.Kind.HOUSE).update(rating=1000)
    rows = anonymous.get("/api/ladders/mia-classic-4/standings/").json()
    assert [(row["rank"], row["bot"], row["owner"]) for row in rows[:2]] == [
        (1, "rookie", "bob"),
        (2, "veteran", "alice"),
    ]
    assert [row["provisional"] for row in rows[:2]] == [True, False]
    assert rows[1]["band"] == 120
    assert all(row["house"] for row in rows[2:])
