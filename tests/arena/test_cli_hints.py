"""The commands the CLI prints as hints run as printed, however tavolo was launched."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli.output import tavolo_command

TAVOLO = Path(sys.executable).parent / "tavolo"
"""The installed `tavolo` script of the environment the tests run in."""


def test_under_uv_run_a_hint_starts_with_uv_run(monkeypatch):
    monkeypatch.setenv("UV_RUN_RECURSION_DEPTH", "1")
    assert tavolo_command("play", "mia", "my bot.py") == "uv run tavolo play mia 'my bot.py'"


def test_a_tavolo_found_on_the_path_is_named_plainly(monkeypatch):
    monkeypatch.delenv("UV_RUN_RECURSION_DEPTH", raising=False)
    monkeypatch.setenv("PATH", f"{TAVOLO.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sys, "argv", [str(TAVOLO)])
    assert tavolo_command("login") == "tavolo login"


def test_a_tavolo_not_on_the_path_is_named_by_its_path(monkeypatch, tmp_path):
    monkeypatch.delenv("UV_RUN_RECURSION_DEPTH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "argv", [str(TAVOLO)])
    assert tavolo_command("login") == f"{shlex.quote(str(TAVOLO))} login"


def new_bot_hint(folder: Path, env: dict[str, str]) -> str:
    """Run the installed `tavolo new-bot` in `folder`; the command it suggests."""
    done = subprocess.run(
        [str(TAVOLO), "new-bot", "mia", "my_bot.py"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split("try it: ", 1)[1].strip()


@pytest.mark.jail
@pytest.mark.skipif(not TAVOLO.exists(), reason="the tavolo script is not installed")
def test_the_hint_of_new_bot_runs_as_printed(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "UV_RUN_RECURSION_DEPTH"}
    env["PATH"] = f"{TAVOLO.parent}{os.pathsep}{env['PATH']}"
    hint = new_bot_hint(tmp_path, env)
    assert hint == "tavolo play mia my_bot.py builtin:random"
    run_it = "Run it:   tavolo play mia my_bot.py builtin:random builtin:random --games 100"
    assert run_it in (tmp_path / "my_bot.py").read_text()
    played = subprocess.run(
        shlex.split(hint), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert played.returncode == 0, played.stderr
    assert "my_bot.py" in played.stdout
