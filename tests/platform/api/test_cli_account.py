"""`tavolo login` and `tavolo upload` against a live server, through click's runner."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from django.contrib.auth.models import AbstractUser

from accounts.services import user_api_token_get
from arena.cli import tavolo
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from tests.platform.api.conftest import GOOD_SOURCE


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv("TAVOLO_CONFIG_DIR", str(folder))
    monkeypatch.delenv("TAVOLO_SERVER", raising=False)
    return folder


def run(*arguments: str, input: str | None = None) -> Result:
    return CliRunner().invoke(tavolo, list(arguments), input=input)


def login(server: str, username: str = "alice", password: str = "alice-password-1") -> Result:
    return run("login", "--server", server, input=f"{username}\n{password}\n")


@pytest.fixture
def server(live_server, config_dir: Path) -> str:
    return live_server.url


@pytest.fixture
def logged_in(server: str, alice: AbstractUser, ladders: dict[str, Ladder]) -> str:
    assert login(server).exit_code == 0
    return server


@pytest.fixture
def bot_file(tmp_path: Path) -> Callable[[bytes], Path]:
    def write(content: bytes, name: str = "domino.py") -> Path:
        path = tmp_path / name
        path.write_bytes(content)
        return path

    return write


def upload(server: str, path: Path, *options: str) -> Result:
    where = ["--bot", "domino", "--ladder", "muggins-2", "--server", server]
    return run("upload", str(path), *where, "--poll-seconds", "0.05", *options)


def test_login_asks_for_the_password_without_echo_and_keeps_the_token(
    server: str, alice: AbstractUser, config_dir: Path
) -> None:
    result = login(server)
    assert result.exit_code == 0, result.output
    assert "alice-password-1" not in result.output
    credentials = config_dir / "credentials.json"
    assert json.loads(credentials.read_text()) == {
        "default": server,
        "servers": {server: user_api_token_get(user=alice)},
    }
    assert stat.S_IMODE(credentials.stat().st_mode) == 0o600


def test_login_keeps_one_token_per_server(
    server: str, alice: AbstractUser, config_dir: Path
) -> None:
    config_dir.mkdir()
    (config_dir / "credentials.json").write_text(json.dumps({"https://elsewhere": "abc"}))
    result = run(
        "login", "--server", f"{server}/", "--username", "alice", input="alice-password-1\n"
    )
    assert result.exit_code == 0, result.stderr
    stored = json.loads((config_dir / "credentials.json").read_text())
    assert stored == {
        "default": server,
        "servers": {"https://elsewhere": "abc", server: user_api_token_get(user=alice)},
    }


def keep_credentials(config_dir: Path, default: str, servers: dict[str, str]) -> None:
    config_dir.mkdir(exist_ok=True)
    credentials = {"default": default, "servers": servers}
    (config_dir / "credentials.json").write_text(json.dumps(credentials))


def test_later_commands_use_the_server_logged_in_to_last(
    logged_in: str, bot_file: Callable[..., Path]
) -> None:
    result = run(
        "upload", str(bot_file(GOOD_SOURCE.encode())), "--bot", "domino", "--ladder", "muggins-2"
    )
    assert result.exit_code == 0, result.output + result.stderr
    assert "domino version 1: pending" in result.output


def test_server_picks_one_of_the_servers_kept(
    logged_in: str, bot_file: Callable[..., Path], config_dir: Path, alice: AbstractUser
) -> None:
    token = user_api_token_get(user=alice)
    keep_credentials(
        config_dir, "http://127.0.0.1:9", {"http://127.0.0.1:9": "abc", logged_in: token}
    )
    path = str(bot_file(GOOD_SOURCE.encode()))
    where = ["--bot", "domino", "--ladder", "muggins-2"]
    by_default = run("upload", path, *where)
    assert by_default.exit_code == 2
    assert "cannot reach http://127.0.0.1:9" in by_default.stderr
    picked = run("upload", path, *where, "--server", logged_in)
    assert picked.exit_code == 0, picked.output + picked.stderr


def test_a_wrong_password_is_one_error_line_and_exit_2(
    server: str, alice: AbstractUser, config_dir: Path
) -> None:
    result = login(server, password="wrong")
    assert result.exit_code == 2
    assert result.stderr.startswith("tavolo: error: ")
    assert result.stderr.endswith("said: wrong user name or password\n")
    assert not (config_dir / "credentials.json").exists()


def test_an_unreachable_server_is_a_clear_error(config_dir: Path) -> None:
    result = login("http://127.0.0.1:9")
    assert result.exit_code == 2
    assert result.stderr.startswith("tavolo: error: cannot reach http://127.0.0.1:9")


def test_upload_without_login_says_to_log_in(
    server: str, bot_file: Callable[..., Path], db: None
) -> None:
    result = upload(server, bot_file(GOOD_SOURCE.encode()))
    assert result.exit_code == 2
    assert f"not logged in to {server}" in result.stderr


def test_upload_creates_the_bot_then_adds_versions(
    logged_in: str, bot_file: Callable[..., Path]
) -> None:
    first = upload(logged_in, bot_file(GOOD_SOURCE.encode()))
    assert first.exit_code == 0, first.output + first.stderr
    assert "created bot domino on muggins-2" in first.output
    assert "domino version 1: pending" in first.output
    second = upload(logged_in, bot_file(GOOD_SOURCE.encode() + b"# v2\n"))
    assert second.exit_code == 0, second.stderr
    assert "domino version 2: pending" in second.output
    assert Bot.objects.get(name="domino").versions.count() == 2


def test_a_bad_file_is_refused_with_the_servers_reason(
    logged_in: str, bot_file: Callable[..., Path]
) -> None:
    result = upload(logged_in, bot_file(b"def act(observation)\n"))
    assert result.exit_code == 2
    assert result.stderr.startswith("tavolo: error: ")
    assert "syntax error on line 1" in result.stderr
    assert not Bot.objects.filter(name="domino").exists()


def test_a_missing_file_is_a_clear_error(logged_in: str, tmp_path: Path) -> None:
    result = upload(logged_in, tmp_path / "nothing.py")
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


def test_a_name_owned_by_someone_else_is_refused(
    logged_in: str,
    bot_file: Callable[..., Path],
    bob: AbstractUser,
    accepted_bot: Callable[..., Bot],
    ladders: dict[str, Ladder],
) -> None:
    accepted_bot(owner=bob, ladder=ladders["muggins-2"], name="domino")
    result = upload(logged_in, bot_file(GOOD_SOURCE.encode()))
    assert result.exit_code == 2
    assert "belongs to bob" in result.stderr


def test_wait_follows_qualification_until_accepted(
    logged_in: str, bot_file: Callable[..., Path], celery_eager: None, unjailed: None
) -> None:
    result = upload(logged_in, bot_file(GOOD_SOURCE.encode()), "--wait")
    assert result.exit_code == 0, result.output + result.stderr
    assert "version 1 qualified" in result.output
    assert Bot.objects.get(name="domino").current_version.status == BotVersion.Status.ACCEPTED


def test_wait_shows_why_a_version_was_rejected_and_its_log(
    logged_in: str,
    bot_file: Callable[..., Path],
    bot_source: Callable[[str], bytes],
    celery_eager: None,
    unjailed: None,
) -> None:
    result = upload(logged_in, bot_file(bot_source("crashing.py")), "--wait")
    assert result.exit_code == 1
    assert "rejected: crashed in qualification match" in result.output
    assert "about to crash" in result.output
