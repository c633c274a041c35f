"""``tavolo standalone``: the whole site on one machine, with nothing else to install.

It migrates a SQLite database in the data folder, creates an admin and a demo
user (printing their passwords once, when created), the default ladders with
their house bots and the example bots of ``platform/bots/examples``, then runs
three child processes until Ctrl-C: the web server (gunicorn on 127.0.0.1),
one Celery worker for both queues, and the beat scheduler; one that ends is
started again (`tavolo_site.supervisor`). The message queue is Redis if
``REDIS_URL`` is set, else a folder in the data folder (`tavolo_site.folder_broker`).

Registered as the ``tavolo.commands`` entry point, so ``tavolo`` finds it.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import click
import httpx
from rich.console import Console

PLATFORM_DIR = Path(__file__).resolve().parent.parent
READY_SECONDS = 120.0
READY_POLL_SECONDS = 0.5
SUPERVISE_POLL_SECONDS = 0.5

if TYPE_CHECKING:
    from tavolo_site.setup import SiteSetup
    from tavolo_site.supervisor import Supervisor

console = Console()


@click.command()
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, envvar="TAVOLO_PORT"
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("tavolo-data"),
    show_default=True,
    envvar="TAVOLO_DATA_DIR",
    help="Where the database, the queue, replays and logs are kept.",
)
def standalone(port: int, data_dir: Path) -> None:
    """Run the Tavolo site here: web server, match worker and scheduler, until Ctrl-C."""
    data_dir = data_dir.expanduser().resolve()
    _environment_prepare(data_dir)
    setup = _site_setup()
    for username, password in setup.passwords.items():
        console.print(f"Created the user [bold]{username}[/bold] with password {password}")
    if not setup.jail:
        console.print(
            "[yellow]bubblewrap (bwrap) is missing or cannot make namespaces here: uploaded bots "
            "cannot qualify, so only house bots will play. Install it (apt-get install "
            "bubblewrap) and restart to let user bots in.[/yellow]"
        )
    supervisor = _children_start(port)
    try:
        console.print("Starting the web server, the worker and the scheduler...")
        not_ready = _wait_until_ready(supervisor, port, jail=setup.jail)
        if not_ready is None:
            url = f"http://127.0.0.1:{port}/"
            console.print(f"[bold]Tavolo[/bold] is ready on [link]{url}[/link]  data: {data_dir}")
        else:
            console.print(
                f"[yellow]Tavolo is not ready after {READY_SECONDS:g} s: {not_ready}[/yellow]"
            )
        _supervise(supervisor)
    finally:
        console.print("Stopping the web server, the worker and the scheduler...")
        supervisor.stop()


def _wait_until_ready(supervisor: Supervisor, port: int, *, jail: bool) -> str | None:
    """Wait for the checks of /readyz and the web server's /healthz; None, or what is not ready.

    On a machine without the jail the site still plays house bots, so the
    jail's check is left out there. A child that ends meanwhile is started again.
    """
    from tavolo_site.health import readiness

    deadline = time.monotonic() + READY_SECONDS
    failing: list[str] = []
    while time.monotonic() < deadline:
        supervisor.check()
        checks = readiness()
        if not jail:
            del checks["jail"]
        failing = [name for name, check in checks.items() if not check.ok]
        if not _web_alive(port):
            failing.append("web server")
        if not failing:
            return None
        time.sleep(READY_POLL_SECONDS)
    return "waiting for " + ", ".join(failing)


def _web_alive(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _environment_prepare(data_dir: Path) -> None:
    """Settings for the site and its children, before Django reads them."""
    data_dir.mkdir(parents=True, exist_ok=True)
    os.environ["TAVOLO_DATA_DIR"] = str(data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavolo_site.settings")
    os.environ.setdefault("SECRET_KEY", _secret_key(data_dir / "secret-key"))
    # Only this machine reaches the site (127.0.0.1), so it may read /metrics too.
    os.environ.setdefault("TAVOLO_METRICS_NETWORKS", "127.0.0.1/32,::1/128")
    if str(PLATFORM_DIR) not in sys.path:
        sys.path.insert(0, str(PLATFORM_DIR))
    python_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PLATFORM_DIR), python_path]))


def _site_setup() -> SiteSetup:
    """Django's set-up, then the site's; imported late, since settings read the environment."""
    import django

    django.setup()
    from tavolo_site.setup import site_setup

    return site_setup()


def _secret_key(path: Path) -> str:
    """The site's secret key, made once and kept in the data folder (owner-only)."""
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


def _children_start(port: int) -> Supervisor:
    """Start the web server, the worker and the scheduler, each in a session of its own."""
    from tavolo_site.supervisor import Child, Supervisor

    python = sys.executable
    data_dir = Path(os.environ["TAVOLO_DATA_DIR"])
    commands = {
        "web server": [
            python, "-m", "gunicorn", "tavolo_site.wsgi",
            "--bind", f"127.0.0.1:{port}", "--workers", "2",
        ],
        "worker": [
            python, "-m", "celery", "-A", "tavolo_site", "worker",
            "--queues", "matches,default", "--concurrency", "2",
            "--hostname", "standalone@%h", "--loglevel", "INFO",
        ],
        "scheduler": [
            python, "-m", "celery", "-A", "tavolo_site", "beat",
            "--schedule", str(data_dir / "celerybeat-schedule"), "--loglevel", "INFO",
        ],
    }  # fmt: skip
    env = _metrics_environment(data_dir / "metrics")
    children = [Child(name, command) for name, command in commands.items()]
    supervisor = Supervisor(children, cwd=PLATFORM_DIR, env=env)
    supervisor.start()
    return supervisor


def _metrics_environment(folder: Path) -> dict[str, str]:
    """The children's environment, in which all their processes count metrics together.

    prometheus-client's multiprocess mode: gunicorn's workers and the Celery
    worker's pool each write to `folder`, and /metrics adds them all up, so the
    site's one endpoint shows the matches its worker played. The folder is
    emptied at each start, as that mode requires.
    """
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}


def _supervise(supervisor: Supervisor) -> None:
    """Keep the children up until Ctrl-C or SIGTERM."""
    stop_signal: list[int] = []

    def on_signal(number: int, frame: FrameType | None) -> None:
        stop_signal.append(number)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    while not stop_signal:
        supervisor.check()
        time.sleep(SUPERVISE_POLL_SECONDS)
