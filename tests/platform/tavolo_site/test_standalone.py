"""`tavolo standalone` end to end: a fresh folder becomes a site that plays, then stops cleanly."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
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


def finished_ranked_matches(database: Path) -> int:
    try:
        with sqlite3.connect(database) as connection:
            query = "SELECT COUNT(*) FROM matches_match WHERE kind='ranked' AND status='finished'"
            return connection.execute(query).fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def test_standalone_plays_ranked_matches_serves_pages_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in SERVICES}
    output = (tmp_path / "standalone.log").open("w+")
    command = [str(Path(sys.executable).with_name("tavolo")), "standalone", "--port", str(port)]
    command += ["--data-dir", str(tmp_path / "data")]
    site = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_SECONDS
        while finished_ranked_matches(tmp_path / "data" / "tavolo.sqlite3") < 4:
            assert site.poll() is None, (tmp_path / "standalone.log").read_text()
            assert time.monotonic() < deadline, "no ranked matches were played in time"
            time.sleep(1)
        page = httpx.get(f"http://127.0.0.1:{port}/admin/login/", timeout=10)
        assert page.status_code == 200
        ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=10)
        assert ready.json()["checks"]["workers"] == {"ok": True, "answered": 1}
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
        assert 'tavolo_matches_total{kind="ranked",ladder=' in metrics
    finally:
        site.send_signal(signal.SIGINT)
        code = site.wait(timeout=60)
    log = (tmp_path / "standalone.log").read_text()
    assert code == 0, log
    assert "Created the user admin with password" in log
    assert "Created the user demo with password" in log
    assert f"Tavolo is ready on http://127.0.0.1:{port}/" in log
    assert "Stopping the web server, the worker and the scheduler" in log
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/admin/login/", timeout=5)
