"""The `tavolo` command installs from the wheel alone and works outside the checkout.

The wheel is built with `uv build`, installed into a new virtual environment
with the locked versions of its dependencies (from uv's cache, offline, when it
holds them), and each command is run from an empty folder with nothing of the
checkout on the path: what the wheel leaves out (a package, a template, a
schema, a migration) fails here instead of on a user's machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.install


def run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run `command`, failing the test with its output if it fails; its stdout."""
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done.stdout


def uv(*args: str | Path, cwd: Path = ROOT) -> str:
    return run(shutil.which("uv") or "uv", *args, cwd=cwd)


class Installed:
    """A virtual environment with only the wheel and its dependencies, and a folder to work in."""

    def __init__(self, venv: Path, work: Path) -> None:
        self.bin = venv / "bin"
        self.work = work
        # Nothing of the checkout or of the test run's own environment leaks in.
        keep = ("PATH", "HOME", "LANG", "TMPDIR", "UV_CACHE_DIR")
        self.env = {name: os.environ[name] for name in keep if name in os.environ}
        self.env["PATH"] = f"{self.bin}{os.pathsep}{self.env.get('PATH', '')}"
        self.env["TAVOLO_CONFIG_DIR"] = str(work / "config")

    def tavolo(self, *args: str, cwd: str = ".") -> str:
        return run(self.bin / "tavolo", *args, cwd=self.work / cwd, env=self.env)

    def python(self, code: str, **env: str) -> str:
        return run(self.bin / "python", "-c", code, cwd=self.work, env={**self.env, **env})


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    build = tmp_path_factory.mktemp("build")
    uv("build", "--wheel", "--out-dir", build / "dist")
    (wheel,) = (build / "dist").glob("tavolo-*.whl")
    locked = build / "requirements.txt"
    uv("export", "--frozen", "--no-dev", "--no-hashes", "--no-emit-project", "-o", locked)
    venv = build / "venv"
    uv("venv", "--python", sys.executable, venv)
    install = ("pip", "install", "--python", venv / "bin" / "python", "-r", locked, wheel)
    try:
        uv(*install, "--offline")
    except AssertionError:  # a dependency not in uv's cache: fetch it from the registry
        uv(*install)
    work = tmp_path_factory.mktemp("work")
    return Installed(venv, work)


def test_the_packages_come_from_the_installed_wheel(installed: Installed) -> None:
    where = installed.python(
        "import arena, sandbox, tavolo_site, tournaments; "
        "print(arena.__file__, sandbox.__file__, tavolo_site.__file__, tournaments.__file__)"
    )
    assert str(ROOT) not in where
    assert where.count(str(installed.bin.parent)) == 4


def test_help_lists_the_commands(installed: Installed) -> None:
    shown = installed.tavolo("--help")
    for command in ("new-bot", "play", "replay", "login", "upload", "tournament"):
        assert command in shown


def test_a_new_bot_plays_the_builtin_bots_and_its_replays_verify(installed: Installed) -> None:
    installed.tavolo("new-bot", "mia", "my_bot.py")
    assert "def act(observation" in (installed.work / "my_bot.py").read_text()
    table = installed.tavolo(
        "play",
        "mia",
        "my_bot.py",
        "builtin:strong",
        "--games",
        "2",
        "--no-jail",
        "--replays",
        "out",
        "--strict",
    )
    assert "my_bot.py" in table and "builtin:strong" in table
    replays = sorted((installed.work / "out").glob("*.json.gz"))
    assert len(replays) == 2
    verified = installed.tavolo("replay", "verify", *(path.name for path in replays), cwd="out")
    assert verified.splitlines() == [f"{path.name}: ok" for path in replays]


@pytest.mark.jail
def test_a_bot_file_plays_in_the_jail(installed: Installed) -> None:
    """The jail starts its bot host from the installed `sandbox` package."""
    installed.tavolo("new-bot", "muggins", "tiles.py")
    table = installed.tavolo("play", "muggins", "tiles.py", "builtin:random", "--strict")
    assert "tiles.py" in table


def test_the_site_loads_with_its_templates_static_files_and_migrations(
    installed: Installed,
) -> None:
    """`tavolo standalone` needs the whole site: every app, template and migration."""
    checked = installed.python(
        "import django; django.setup()\n"
        "from django.core.management import call_command\n"
        "from django.template.loader import get_template\n"
        "from django.contrib.staticfiles import finders\n"
        "call_command('check')\n"
        "call_command('makemigrations', '--check', '--dry-run')\n"
        "for name in ('web/bot.html', 'web/tournament.html', 'api/swagger_ui.html'):\n"
        "    get_template(name)\n"
        "for name in ('web/tavolo.css', 'tavolo-viewer/viewer.js', 'api/docs.css'):\n"
        "    assert finders.find(name), name\n"
        "print('site ok')\n",
        DJANGO_SETTINGS_MODULE="tavolo_site.settings",
        DEBUG="1",
        TAVOLO_DATA_DIR=str(installed.work / "data"),
    )
    assert "site ok" in checked
