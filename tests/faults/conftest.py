"""The site as deploy/run_local.py runs it, on PostgreSQL and a Redis server of the tests' own.

One stack serves the whole module: starting it (migrations, five processes, the
workers' jail checks) takes most of a minute. The tests drive it through its
HTTP API, and inject faults from outside as an operator's bad day would: a
worker SIGKILLed, Redis killed and restarted empty, database connections
terminated, a message delivered twice.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.platform.integration.conftest import RedisServer

REPOSITORY = Path(__file__).parents[2]
RUN_LOCAL = REPOSITORY / "deploy" / "run_local.py"
READY_SECONDS = 240
REQUEST_SECONDS = 30
"""How long a request to the stack may take: a password check alone takes seconds on a busy host."""
SETTINGS = {
    "TAVOLO_SCHEDULE_SECONDS": "2",
    "TAVOLO_QUEUE_DEPTH": "3",
    "TAVOLO_MATCHES_PER_MINUTE": "90",
    "TAVOLO_QUALIFICATION_MATCHES": "1",
    "TAVOLO_SIGNUP_RATE": "1000/hour",
    "TAVOLO_LOGIN_RATE": "1000/minute",
    "TAVOLO_UPLOAD_RATE": "1000/hour",
}


def wait_until(check: Callable[[], Any], *, seconds: float, what: str, every: float = 0.5) -> Any:
    """Poll `check` until it returns something true; fail the test after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {seconds:.0f} s waiting for {what}")
        time.sleep(every)


@dataclass
class Stack:
    """The running site: its address, its state file, its Redis and its supervisor."""

    supervisor: subprocess.Popen[bytes]
    data_dir: Path
    redis: RedisServer
    log: Path

    @property
    def state(self) -> dict[str, Any]:
        return json.loads((self.data_dir / "stack.json").read_text())

    @property
    def url(self) -> str:
        return str(self.state["url"])

    def pid(self, service: str) -> int:
        return int(self.state["pids"][service])


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(90)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("stack")
    redis_server = RedisServer(folder)
    redis_server.start()
    data_dir = folder / "data"
    log = folder / "run_local.log"
    command = [sys.executable, str(RUN_LOCAL), "--data-dir", str(data_dir)]
    command += ["--redis-url", redis_server.url]
    for name, value in SETTINGS.items():
        command += ["--env", f"{name}={value}"]
    with log.open("wb") as output:
        supervisor = subprocess.Popen(command, cwd=REPOSITORY, stdout=output, stderr=output)
    running = Stack(supervisor, data_dir, redis_server, log)
    try:
        wait_until(
            lambda: supervisor.poll() is not None or b"ready:" in log.read_bytes(),
            seconds=READY_SECONDS,
            what="the stack to be ready",
        )
        assert supervisor.poll() is None, log.read_text()
        yield running
    finally:
        _stop(supervisor)
        redis_server.stop()


class Api:
    """A signed-in client of the stack's API."""

    def __init__(self, url: str, token: str) -> None:
        self.client = httpx.Client(
            base_url=f"{url}/api",
            headers={"Authorization": f"Token {token}"},
            timeout=REQUEST_SECONDS,
        )

    def get(self, path: str) -> Any:
        answer = self.client.get(path)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
        return answer.json()

    def all(self, path: str) -> list[Any]:
        """Every item of a paginated list."""
        items: list[Any] = []
        page = self.get(path)
        while True:
            items += page["results"]
            if not page["next"]:
                return items
            page = self.get(page["next"].split("/api", 1)[1])

    def post(self, path: str, body: dict[str, Any]) -> Any:
        answer = self.client.post(path, json=body)
        assert answer.status_code in (200, 201), (path, answer.status_code, answer.text[:300])
        return answer.json()


def sign_up(url: str, username: str, password: str) -> Api:
    """An account made through the sign-up page, and its API token."""
    with httpx.Client(base_url=url, timeout=REQUEST_SECONDS) as browser:
        browser.get("/signup/")
        form = {
            "username": username,
            "password1": password,
            "password2": password,
            "csrfmiddlewaretoken": browser.cookies["csrftoken"],
        }
        answer = browser.post("/signup/", data=form, headers={"Referer": f"{url}/signup/"})
        assert answer.status_code in (200, 302), answer.text[:300]
    token = httpx.post(
        f"{url}/api/token/",
        json={"username": username, "password": password},
        timeout=REQUEST_SECONDS,
    )
    assert token.status_code == 200, token.text
    return Api(url, token.json()["token"])


def descendants(pid: int) -> list[int]:
    """The processes `pid` started, and theirs, found through /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, waiting = [], [pid]
    while waiting:
        for child in children.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child)
    return found


def alive(pid: int) -> bool:
    """True unless the process is gone or a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
