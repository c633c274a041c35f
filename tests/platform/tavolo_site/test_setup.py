"""Setting up a site: first users, ladders and example bots, once, whatever the number of runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from pytest_django.fixtures import Settings

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match
from tavolo_site.setup import site_setup


@pytest.fixture(autouse=True)
def static_root(settings: Settings, tmp_path: Path) -> None:
    settings.STATIC_ROOT = tmp_path / "static"


def test_a_fresh_site_gets_an_admin_a_demo_user_ladders_and_example_bots(
    db: None, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        setup = site_setup()
    users = get_user_model().objects
    assert set(setup.passwords) == {"admin", "demo"}
    assert users.get(username="admin").check_password(setup.passwords["admin"])
    assert users.get(username="admin").is_staff
    assert not users.get(username="demo").is_staff
    assert Ladder.objects.count() == 4
    assert Bot.objects.filter(kind=Bot.Kind.HOUSE).count() == 8
    demo_bots = {(bot.ladder.game, bot.name) for bot in Bot.objects.filter(owner__username="demo")}
    assert demo_bots == {("mia", "voucher"), ("muggins", "greedy")}
    assert Bot.objects.filter(owner__username="demo").count() == 4
    assert BotVersion.objects.filter(status=BotVersion.Status.PENDING).count() == 4
    assert len(callbacks) == 4, "each example bot is sent to qualification"


def test_setting_up_again_creates_nothing_and_shows_no_password(db: None) -> None:
    site_setup()
    counts = (get_user_model().objects.count(), Bot.objects.count(), BotVersion.objects.count())
    again = site_setup()
    assert again.passwords == {}
    assert (
        get_user_model().objects.count(),
        Bot.objects.count(),
        BotVersion.objects.count(),
    ) == counts


def test_setting_up_requeues_matches_cut_off_by_the_last_stop(db: None) -> None:
    site_setup()
    ladder = Ladder.objects.get(slug="muggins-2")
    house = Bot.objects.filter(ladder=ladder, kind=Bot.Kind.HOUSE).first()
    match = Match.objects.create(
        ladder=ladder, seed="1", queued_at=timezone.now(), status=Match.Status.RUNNING
    )
    match.seats.create(seat=0, bot=house, bot_version=house.current_version)
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now())
    site_setup()
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED
