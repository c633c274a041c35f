"""`tavolo standalone` end to end: a fresh folder becomes a site that plays, then stops cleanly."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow

START_SECONDS = 90
SERVICES = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "TAVOLO_DATA_DIR")
"""Left out of the environment: standalone needs nothing but itself."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Site:
    """A running `tavolo standalone`, its folder, and its exit code once stopped."""

    process: subprocess.Popen
    port: int
    folder: Path
    code: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> str:
        return (self.folder / "standalone.log").read_text()

    def finished_ranked_matches(self) -> int:
        try:
            with sqlite3.connect(self.folder / "data" / "tavolo.sqlite3") as connection:
                query = (
                    "SELECT COUNT(*) FROM matches_match WHERE kind='ranked' AND status='finished'"
                )
                return connection.execute(query).fetchone()[0]
        except sqlite3.OperationalError:
            return 0

    def wait_for_ranked_matches(self, count: int) -> None:
        deadline = time.monotonic() + START_SECONDS
        while self.finished_ranked_matches() < count:
            assert self.process.poll() is None, self.log
            assert time.monotonic() < deadline, "no ranked matches were played in time"
            time.sleep(1)


@contextmanager
def standalone(folder: Path, **settings: str) -> Iterator[Site]:
    """Run `tavolo standalone` on a free port with its data in `folder`; Ctrl-C it after.

    `settings` are environment variables for it, such as ``TAVOLO_ANONYMOUS_READ_RATE``.
    """
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in SERVICES} | settings
    output = (folder / "standalone.log").open("w+")
    command = [str(Path(sys.executable).with_name("tavolo")), "standalone", "--port", str(port)]
    command += ["--data-dir", str(folder / "data")]
    site = Site(
        subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT), port, folder
    )
    try:
        yield site
    finally:
        site.process.send_signal(signal.SIGINT)
        site.code = site.process.wait(timeout=60)
        output.close()


def test_standalone_plays_ranked_matches_serves_pages_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    with standalone(tmp_path) as site:
        site.wait_for_ranked_matches(4)
        page = httpx.get(f"{site.url}/admin/login/", timeout=10)
        assert page.status_code == 200
        ready = httpx.get(f"{site.url}/readyz", timeout=10)
        assert ready.json()["checks"]["workers"] == {"ok": True, "answered": 1}
        metrics = httpx.get(f"{site.url}/metrics", timeout=10).text
        assert 'tavolo_matches_total{kind="ranked",ladder=' in metrics
    log = site.log
    assert site.code == 0, log
    assert "Created the user admin with password" in log
    assert "Created the user demo with password" in log
    assert f"Tavolo is ready on {site.url}/" in log
    assert "Stopping the web server, the worker and the scheduler" in log
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{site.url}/admin/login/", timeout=5)
