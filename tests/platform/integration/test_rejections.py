"""Why a version was rejected, as a real worker decides it and the API and the CLI tell it."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
from click.testing import CliRunner, Result
from django.contrib.auth.models import AbstractUser
from django.core.wsgi import get_wsgi_application
from rest_framework.test import APIClient

from arena.cli import tavolo
from bots.models import BotVersion
from ladders.models import Ladder

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.jail]

BOT_FILES = Path(__file__).parents[1] / "bot_files"


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Requests are not logged to the test's output."""


@pytest.fixture
def site(postgres: str) -> Iterator[str]:
    """The site, served from a thread of this process on the test's database."""
    server: WSGIServer = make_server(
        "127.0.0.1", 0, get_wsgi_application(), handler_class=QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture
def cli(site: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, alice: AbstractUser):
    """Run `tavolo` logged in to the site as alice."""
    monkeypatch.setenv("TAVOLO_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("TAVOLO_SERVER", raising=False)

    def run(*arguments: str, input: str | None = None) -> Result:
        return CliRunner().invoke(tavolo, list(arguments), input=input)

    assert run("login", "--server", site, input="alice\nalice-password-1\n").exit_code == 0
    return run


@pytest.mark.parametrize(
    ("bot_file", "said"),
    [
        ("illegal.py", r"illegal x\d+: \{'type': 'fly'\} \(decision 1 of match \d+\)"),
        ("slow.py", r"late x\d+: no reply within \d+ s \(decision 1 of match \d+\)"),
        ("crashing.py", r"crashed in qualification match \d+"),
    ],
)
def test_upload_wait_says_why_a_version_was_rejected(
    cli,
    site: str,
    alice: AbstractUser,
    ladders: dict[str, Ladder],
    worker: object,
    bot_file: str,
    said: str,
) -> None:
    Ladder.objects.exclude(slug="mia-classic-4").update(active=False)
    where = ["--bot", "tester", "--ladder", "mia-classic-4", "--server", site]
    result = cli("upload", str(BOT_FILES / bot_file), *where, "--wait", "--poll-seconds", "0.2")

    assert result.exit_code == 1, result.output + result.stderr
    assert re.search(f"rejected: .*{said}", result.output), result.output
    version = BotVersion.objects.get(bot__name="tester")
    api = APIClient()
    answer = api.get(f"/api/bots/{version.bot_id}/versions/1/").json()
    assert answer["status"] == "rejected"
    assert re.search(said, answer["reason"])
    assert answer["qualification_matches"]
    for match_id in answer["qualification_matches"]:
        assert f"qualification match: {site}/matches/{match_id}/" in result.output
    if bot_file == "crashing.py":
        assert "about to crash" in result.output
        assert "about to crash" not in answer["reason"]
    else:
        assert "stderr" not in result.output
