"""Deleting a bot that was never accepted and retiring one that was, over the API."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match


@pytest.fixture
def crasher(alice: AbstractUser, mia_ladder: Ladder, rejected_bot: Callable[..., Bot]) -> Bot:
    return rejected_bot(owner=alice, ladder=mia_ladder)


@pytest.fixture
def champion(alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable[..., Bot]) -> Bot:
    return accepted_bot(owner=alice, ladder=mia_ladder, name="champion")


def test_the_owner_deletes_a_rejected_bot_and_its_files(
    alice_api: APIClient,
    crasher: Bot,
    match_files: Callable[[Bot], list[Path]],
    django_capture_on_commit_callbacks,
) -> None:
    files = match_files(crasher)
    assert files and all(path.exists() for path in files)
    with django_capture_on_commit_callbacks(execute=True):
        answer = alice_api.delete(f"/api/bots/{crasher.pk}/")
    assert answer.status_code == 204, answer.content
    assert alice_api.get(f"/api/bots/{crasher.pk}/").status_code == 404
    assert not Match.objects.filter(seats__bot_id=crasher.pk).exists()
    assert [path for path in files if path.exists()] == []


def test_another_user_may_not_delete_it(
    bob_api: APIClient, anonymous: APIClient, crasher: Bot, match_files: Callable
) -> None:
    files = match_files(crasher)
    answer = bob_api.delete(f"/api/bots/{crasher.pk}/")
    assert answer.status_code == 403
    assert answer.json() == {"detail": "crasher belongs to another user"}
    assert anonymous.delete(f"/api/bots/{crasher.pk}/").status_code == 401
    assert Bot.objects.filter(pk=crasher.pk).exists()
    assert all(path.exists() for path in files)


def test_an_accepted_bot_is_not_deleted_but_may_be_retired(
    alice_api: APIClient, champion: Bot
) -> None:
    answer = alice_api.delete(f"/api/bots/{champion.pk}/")
    assert answer.status_code == 400
    assert answer.json() == {"detail": "champion has had an accepted version: retire it instead"}
    assert Bot.objects.filter(pk=champion.pk).exists()


def test_the_owner_retires_and_returns_a_bot(alice_api: APIClient, champion: Bot) -> None:
    answer = alice_api.post(f"/api/bots/{champion.pk}/retire/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["retired"] is True
    assert body["retired_reason"] == "retired by its owner"
    assert body["retired_at"]
    standings = alice_api.get("/api/ladders/mia-classic-4/standings/").json()
    assert "champion" not in {line["bot"] for line in standings}

    answer = alice_api.post(f"/api/bots/{champion.pk}/unretire/")
    assert answer.status_code == 200
    assert answer.json()["retired"] is False
    assert answer.json()["retired_at"] is None
    standings = alice_api.get("/api/ladders/mia-classic-4/standings/").json()
    assert "champion" in {line["bot"] for line in standings}


def test_retiring_a_bot_never_accepted_says_to_delete_it(
    alice_api: APIClient, crasher: Bot
) -> None:
    answer = alice_api.post(f"/api/bots/{crasher.pk}/retire/")
    assert answer.status_code == 400
    assert "delete it instead" in answer.json()["detail"]


@pytest.mark.parametrize("action", ["retire", "unretire"])
def test_only_the_owner_retires_or_returns(
    bob_api: APIClient, anonymous: APIClient, champion: Bot, action: str
) -> None:
    assert bob_api.post(f"/api/bots/{champion.pk}/{action}/").status_code == 403
    assert anonymous.post(f"/api/bots/{champion.pk}/{action}/").status_code == 401
    assert bob_api.post(f"/api/bots/999999/{action}/").status_code == 404
    champion.refresh_from_db()
    assert not champion.is_retired


def test_the_schema_documents_deleting_and_retiring(anonymous: APIClient, db: None) -> None:
    paths = anonymous.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert set(paths["/api/bots/{bot_id}/"]) >= {"get", "delete"}
    assert set(paths["/api/bots/{bot_id}/retire/"]) == {"post"}
    assert set(paths["/api/bots/{bot_id}/unretire/"]) == {"post"}
    assert {"204", "400", "403"} <= set(paths["/api/bots/{bot_id}/"]["delete"]["responses"])
