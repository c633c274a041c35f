"""Fixtures of the site's tests: browsers logged in as alice and bob, and a played match."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client

from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from tests.platform.api.conftest import house, play_match

__all__ = ["house", "play_match"]


@pytest.fixture
def alice_browser(alice: AbstractUser) -> Client:
    browser = Client()
    browser.force_login(alice)
    return browser


@pytest.fixture
def bob_browser(bob: AbstractUser) -> Client:
    browser = Client()
    browser.force_login(bob)
    return browser


@pytest.fixture
def alice_bot(alice: AbstractUser, accepted_bot: Callable[..., Bot], muggins_ladder: Ladder) -> Bot:
    return accepted_bot(owner=alice, ladder=muggins_ladder, name="domino")


@pytest.fixture
def played(play_match: Callable[..., Match], alice_bot: Bot, house: Bot) -> Match:
    """A finished ranked match of alice's bot against the strong house bot."""
    return play_match(alice_bot.ladder, alice_bot, house)
