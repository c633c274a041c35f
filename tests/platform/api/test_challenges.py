"""Challenges over the API: your bot against chosen opponents, unranked, rate limited."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from kombu.exceptions import OperationalError
from rest_framework.test import APIClient

from accounts.throttles import ChallengeThrottle
from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from tavolo_site.celery import app as celery_app


@pytest.fixture
def alice_bot(alice: AbstractUser, accepted_bot: Callable[..., Bot], mia_ladder: Ladder) -> Bot:
    return accepted_bot(owner=alice, ladder=mia_ladder, name="liar")


@pytest.fixture
def bob_bot(bob: AbstractUser, accepted_bot: Callable[..., Bot], mia_ladder: Ladder) -> Bot:
    return accepted_bot(owner=bob, ladder=mia_ladder, name="honest")


def challenge(client: APIClient, bot: Bot, *opponents: Bot):
    body = {"bot": bot.pk, "opponents": [opponent.pk for opponent in opponents]}
    return client.post("/api/challenges/", body, format="json")


def test_a_challenge_queues_an_unranked_match_with_house_bots_filling_seats(
    alice_api: APIClient, alice_bot: Bot, bob_bot: Bot
) -> None:
    answer = challenge(alice_api, alice_bot, bob_bot)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["kind"], body["status"]) == ("challenge", "queued")
    seated = [seat["bot"] for seat in body["seats"]]
    assert seated[:2] == ["liar", "honest"]
    assert len(seated) == 4
    assert all(name.startswith("builtin:") for name in seated[2:])


def test_a_challenge_of_an_owners_own_bots_says_it_is_unranked(
    alice: AbstractUser,
    alice_api: APIClient,
    alice_bot: Bot,
    bob_bot: Bot,
    accepted_bot: Callable[..., Bot],
    mia_ladder: Ladder,
) -> None:
    twin = accepted_bot(owner=alice, ladder=mia_ladder, name="twin")
    shared = challenge(alice_api, alice_bot, twin).json()
    assert (shared["ranked"], shared["owner_shared"]) == (False, True)
    apart = challenge(alice_api, alice_bot, bob_bot).json()
    assert (apart["ranked"], apart["owner_shared"]) == (False, False)
    browser = Client()
    browser.force_login(alice)
    html = browser.get(f"/matches/{shared['id']}/").content.decode()
    assert "two bots of one owner: unranked" in html
    html = browser.get(f"/matches/{apart['id']}/").content.decode()
    assert "unranked" in html and "two bots of one owner" not in html


def test_the_challenge_list_shows_only_your_own(
    alice_api: APIClient, bob_api: APIClient, alice_bot: Bot, bob_bot: Bot
) -> None:
    mine = challenge(alice_api, alice_bot, bob_bot).json()
    challenge(bob_api, bob_bot, alice_bot)
    listing = alice_api.get("/api/challenges/").json()
    assert [match["id"] for match in listing["results"]] == [mine["id"]]


def test_challenging_with_another_users_bot_is_a_403(
    bob_api: APIClient, alice_bot: Bot, bob_bot: Bot
) -> None:
    answer = challenge(bob_api, alice_bot, bob_bot)
    assert answer.status_code == 403
    assert "belongs to another user" in answer.json()["detail"]
    assert not Match.objects.exists()


def test_an_unknown_opponent_is_a_400_naming_the_field(
    alice_api: APIClient, alice_bot: Bot
) -> None:
    answer = alice_api.post(
        "/api/challenges/", {"bot": alice_bot.pk, "opponents": [987654]}, format="json"
    )
    assert answer.status_code == 400
    assert "987654" in answer.json()["opponents"][0]


def test_no_opponents_is_a_400(alice_api: APIClient, alice_bot: Bot) -> None:
    answer = alice_api.post(
        "/api/challenges/", {"bot": alice_bot.pk, "opponents": []}, format="json"
    )
    assert answer.status_code == 400
    assert not Match.objects.exists()


def test_a_bot_on_another_ladder_cannot_be_challenged(
    alice_api: APIClient, alice_bot: Bot, bob: AbstractUser, accepted_bot, muggins_ladder
) -> None:
    elsewhere = accepted_bot(owner=bob, ladder=muggins_ladder, name="domino")
    answer = challenge(alice_api, alice_bot, elsewhere)
    assert answer.status_code == 400
    assert "another ladder" in answer.json()["detail"]


def test_challenges_need_a_login(anonymous: APIClient, alice_bot: Bot, bob_bot: Bot) -> None:
    assert challenge(anonymous, alice_bot, bob_bot).status_code == 401
    assert anonymous.get("/api/challenges/").status_code == 401


def test_challenges_are_throttled_per_user(
    alice_api: APIClient, alice_bot: Bot, bob_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(ChallengeThrottle.THROTTLE_RATES, "challenges", "2/minute")
    answers = [challenge(alice_api, alice_bot, bob_bot).status_code for _ in range(3)]
    assert answers == [201, 201, 429]
    assert Match.objects.count() == 2
    assert alice_api.get("/api/challenges/").status_code == 200, "reads are never throttled"


def test_the_hourly_challenge_allowance_is_a_429(
    alice_api: APIClient, alice_bot: Bot, bob_bot: Bot, settings
) -> None:
    settings.TAVOLO_CHALLENGES_PER_HOUR = 1
    assert challenge(alice_api, alice_bot, bob_bot).status_code == 201
    answer = challenge(alice_api, alice_bot, bob_bot)
    assert answer.status_code == 429
    assert "1 challenges an hour" in answer.json()["detail"]
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_challenge_is_stored_and_answered_when_the_queue_is_down(
    alice_api: APIClient, alice_bot: Bot, bob_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broker_down(*args: object, **options: object) -> None:
        raise OperationalError("the broker is unreachable")

    monkeypatch.setattr(celery_app, "send_task", broker_down)
    answer = challenge(alice_api, alice_bot, bob_bot)
    assert answer.status_code == 201
    assert Match.objects.get(pk=answer.json()["id"]).status == Match.Status.QUEUED
