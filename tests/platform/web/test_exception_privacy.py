"""A bot's exception is public by its type only; its message is its owner's, in the log."""

from __future__ import annotations

import gzip
from collections.abc import Callable

import pytest
from django.test import Client

from arena.replay import loads_replay, public_reason, verify_replay
from bots.models import Bot
from matches.models import Match
from tests.platform.conftest import current_version_make

SECRET = "my-secret-plan-42"
RAISING = (
    "raised = False\n"
    "def act(observation):\n"
    "    global raised\n"
    "    if not raised:\n"
    "        raised = True\n"
    f"        raise RuntimeError('{SECRET}')\n"
    "    return observation['legal_actions'][0]\n"
)


@pytest.mark.parametrize(
    ("reason", "public"),
    [
        (f"act raised RuntimeError: {SECRET}", "act raised RuntimeError"),
        ("act raised KeyError: 'x'", "act raised KeyError"),
        (f"act raised {SECRET} without a type", "act raised an exception"),
        ("late: 1.2 s with the time bank spent", "late: 1.2 s with the time bank spent"),
        ("illegal action: {'type': 'x'}", "illegal action: {'type': 'x'}"),
    ],
)
def test_a_public_reason_names_an_exception_by_its_type_only(reason: str, public: str) -> None:
    assert public_reason(reason) == public


@pytest.fixture
def raised(play_match: Callable[..., Match], alice_bot: Bot, house: Bot) -> Match:
    """A match in which alice's bot raised once, with a secret in the message."""
    current_version_make(alice_bot, RAISING, number=2)
    return play_match(alice_bot.ladder, alice_bot, house)


def test_the_served_replay_and_frames_name_the_type_not_the_message(
    client: Client, raised: Match
) -> None:
    with raised.replay.open("rb") as stored:
        assert SECRET in gzip.decompress(stored.read()).decode(), "the stored file is untouched"
    base = f"/matches/{raised.pk}"
    downloads = {
        "api": gzip.decompress(client.get(f"/api/matches/{raised.pk}/replay/").content),
        "gz": gzip.decompress(client.get(f"{base}/replay.json.gz").content),
        "json": client.get(f"{base}/replay.json").content,
    }
    for name, body in downloads.items():
        text = body.decode()
        assert SECRET not in text, name
        assert "act raised RuntimeError" in text, name
        verify_replay(loads_replay(body))  # raises ReplayMismatch if it no longer verifies
    for view in ("full", "public", "seat-0", "seat-1"):
        frames = client.get(f"{base}/frames/{view}.json")
        assert frames.status_code == 200
        assert SECRET not in frames.content.decode(), view


def test_the_owner_reads_the_message_in_the_bot_log(alice_browser: Client, raised: Match) -> None:
    seat = raised.seats.get(bot__owner__username="alice").seat
    log = alice_browser.get(f"/matches/{raised.pk}/seats/{seat}/log/").content.decode()
    assert SECRET in log
