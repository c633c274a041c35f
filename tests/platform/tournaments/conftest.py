"""Fixtures of the tournament tests: a tournament open for entries, and bots to enter."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import AbstractUser
from django.utils import timezone

from accounts.services import user_create
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from tests.platform.conftest import current_version_make
from tournaments.models import Tournament
from tournaments.services import (
    tournament_advance,
    tournament_enter,
    tournament_freeze,
    tournament_start,
)


@pytest.fixture
def open_tournament(muggins_ladder: Ladder) -> Callable[..., Tournament]:
    """Make a tournament whose entries are open now and close in an hour."""

    def make(**fields: object) -> Tournament:
        now = timezone.now()
        values = {
            "slug": "spring-cup",
            "name": "Spring Cup",
            "ladder": muggins_ladder,
            "format": "round-robin",
            "entries_open_at": now - timedelta(hours=1),
            "entries_close_at": now + timedelta(hours=1),
            "starts_at": now + timedelta(hours=2),
            **fields,
        }
        tournament = Tournament(**values)
        tournament.full_clean()
        tournament.save()
        return tournament

    return make


@pytest.fixture
def new_version() -> Callable[[Bot], BotVersion]:
    """Give a bot a new accepted current version (as an upload that qualified would)."""

    def make(bot: Bot) -> BotVersion:
        number = bot.versions.count() + 1
        source = f"def act(observation):\n    return observation['legal_actions'][-1]\n# {number}\n"
        return current_version_make(bot, source, number=number).current_version

    return make


@pytest.fixture
def muggins_bots(
    alice: AbstractUser, bob: AbstractUser, muggins_ladder: Ladder, accepted_bot: Callable
) -> list[Bot]:
    """Three user bots of three owners on the two-seat Muggins ladder, rated apart."""
    carol = user_create(username="carol", password="carol-password-1")
    return [
        accepted_bot(owner=alice, ladder=muggins_ladder, name="first", rating=1600),
        accepted_bot(owner=bob, ladder=muggins_ladder, name="second", rating=1550),
        accepted_bot(owner=carol, ladder=muggins_ladder, name="third", rating=1400),
    ]


@pytest.fixture
def play_to_the_end(celery_eager: None, django_capture_on_commit_callbacks: Callable) -> Callable:
    """Start a frozen tournament and advance it until it finishes, its matches played here."""

    def play(tournament: Tournament) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            assert tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
        for _ in range(50):
            if Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.RUNNING:
                return
            with django_capture_on_commit_callbacks(execute=True):
                tournament_advance(tournament_id=tournament.pk)
        pytest.fail("the tournament never ends")

    return play


@pytest.fixture
def finished_tournament(
    muggins_bots: list[Bot], open_tournament: Callable, play_to_the_end: Callable
) -> Tournament:
    """A round-robin of the three Muggins bots, each table played twice, finished."""
    tournament = open_tournament(repeat=2)
    for bot in muggins_bots:
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    return tournament
