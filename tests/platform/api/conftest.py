"""Fixtures of the API tests: clients for anonymous, alice and bob, and a played match."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from accounts.services import user_api_token_get
from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from matches.services import match_create, match_run

GOOD_SOURCE = "def act(observation):\n    return observation['legal_actions'][0]\n"


def token_client(user: AbstractUser) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_api_token_get(user=user)}")
    return client


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def alice_api(alice: AbstractUser) -> APIClient:
    return token_client(alice)


@pytest.fixture
def bob_api(bob: AbstractUser) -> APIClient:
    return token_client(bob)


@pytest.fixture
def house(muggins_ladder: Ladder) -> Bot:
    """The strong house bot of the two-seat Muggins ladder."""
    return Bot.objects.get(ladder=muggins_ladder, name="builtin:strong")


@pytest.fixture
def play_match(unjailed: None) -> Callable[..., Match]:
    """Play a ranked match between the current versions of `bots`, in seat order."""

    def play(ladder: Ladder, *bots: Bot, kind: str = Match.Kind.RANKED) -> Match:
        versions = [bot.current_version for bot in bots]
        match = match_create(ladder=ladder, kind=kind, versions=versions, enqueue=False)
        assert match_run(match_id=match.pk, worker="test-worker")
        match.refresh_from_db()
        return match

    return play
