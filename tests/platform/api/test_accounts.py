"""The token endpoint and the current user."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from accounts.services import user_api_token_get
from accounts.throttles import LoginThrottle


def test_the_token_endpoint_trades_a_password_for_the_personal_token(
    anonymous: APIClient, alice: AbstractUser
) -> None:
    answer = anonymous.post(
        "/api/token/", {"username": "alice", "password": "alice-password-1"}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json() == {"token": user_api_token_get(user=alice)}


def test_a_wrong_password_gets_a_400_and_no_token(
    anonymous: APIClient, alice: AbstractUser
) -> None:
    answer = anonymous.post(
        "/api/token/", {"username": "alice", "password": "guess"}, format="json"
    )
    assert answer.status_code == 400
    assert "token" not in answer.json()


def test_me_shows_the_token_holder_and_their_bots(
    alice_api: APIClient, alice: AbstractUser, accepted_bot, mia_ladder
) -> None:
    accepted_bot(owner=alice, ladder=mia_ladder, name="liar")
    answer = alice_api.get("/api/me/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["username"] == "alice"
    assert [bot["name"] for bot in body["bots"]] == ["liar"]
    assert body["challenges_left"] == 10


def test_me_needs_a_token_or_a_session(anonymous: APIClient, db: None) -> None:
    answer = anonymous.get("/api/me/")
    assert answer.status_code == 401
    assert "detail" in answer.json()


def test_a_bad_token_is_refused_with_401(anonymous: APIClient, db: None) -> None:
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert anonymous.get("/api/me/").status_code == 401


def test_a_logged_in_browser_session_works_too(alice: AbstractUser) -> None:
    client = APIClient()
    client.force_login(alice)
    assert client.get("/api/me/").json()["username"] == "alice"


def test_password_guesses_at_the_token_endpoint_are_throttled_per_address(
    anonymous: APIClient, alice: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(LoginThrottle.THROTTLE_RATES, "logins", "3/minute")
    guesses = [
        anonymous.post("/api/token/", {"username": "alice", "password": f"guess-{n}"}).status_code
        for n in range(4)
    ]
    assert guesses == [400, 400, 400, 429]
    right = anonymous.post("/api/token/", {"username": "alice", "password": "alice-password-1"})
    assert right.status_code == 429, "once throttled, even the right password waits"
