"""`tavolo replay fetch` against a live server: by match id, and a bot's last matches."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from django.contrib.auth.models import AbstractUser

from arena.replay import read_replay, verify_replay
from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from tests.platform.api.test_cli_account import config_dir, run, server

__all__ = ["config_dir", "server"]


def fetch(server: str, out: Path, *arguments: str) -> Result:
    return run("replay", "fetch", "--server", server, "--out", str(out), *arguments)


@pytest.fixture
def domino(accepted_bot: Callable[..., Bot], alice: AbstractUser, muggins_ladder: Ladder) -> Bot:
    return accepted_bot(owner=alice, ladder=muggins_ladder, name="domino")


@pytest.fixture
def two_matches(play_match: Callable[..., Match], domino: Bot, house: Bot) -> list[Match]:
    """Two finished matches of alice's domino, oldest first."""
    return [play_match(domino.ladder, domino, house) for _ in range(2)]


def test_fetch_writes_each_named_replay_and_they_verify(
    server: str, tmp_path: Path, two_matches: list[Match]
) -> None:
    result = fetch(server, tmp_path / "out", *(str(match.pk) for match in two_matches))
    assert result.exit_code == 0, result.output
    for match in two_matches:
        path = tmp_path / "out" / f"tavolo-match-{match.pk}.json.gz"
        assert str(path) in result.output
        verify_replay(read_replay(path))


def test_fetch_by_bot_takes_its_last_finished_matches_newest_first(
    server: str, tmp_path: Path, domino: Bot, two_matches: list[Match]
) -> None:
    result = fetch(server, tmp_path, "--bot", domino.name, "--last", "1")
    assert result.exit_code == 0, result.output
    assert [path.name for path in tmp_path.glob("*.json.gz")] == [
        f"tavolo-match-{two_matches[-1].pk}.json.gz"
    ]


def test_fetch_of_an_unknown_match_or_bot_is_one_error_line(
    server: str, tmp_path: Path, ladders: dict[str, Ladder]
) -> None:
    missing = fetch(server, tmp_path, "4242")
    assert missing.exit_code == 2
    assert "no match 4242" in missing.output
    nobody = fetch(server, tmp_path, "--bot", "nobody")
    assert nobody.exit_code == 2
    assert "no bot called 'nobody'" in nobody.output


def test_fetch_needs_match_ids_or_a_bot(server: str, tmp_path: Path) -> None:
    result = fetch(server, tmp_path)
    assert result.exit_code == 2
    assert "--bot" in result.output
