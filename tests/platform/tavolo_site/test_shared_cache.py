"""A site without Redis keeps one cache for all its processes: one budget, not one a process.

The standalone runs two web server processes; here two web servers share one
data folder, as they do there, and a budget spent at one is spent at the other.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from tavolo_site.file_cache import SharedFileCache

ROOT = Path(__file__).resolve().parents[3]
PLATFORM_DIR = ROOT / "platform"
READY_SECONDS = 60
LEFT_OUT = ("DATABASE_URL", "REDIS_URL", "TAVOLO_DATA_DIR")
"""The test run's own services, if it has any: these sites have nothing but their folder."""


def _environment(data_dir: Path, **settings: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in LEFT_OUT}
    return env | {
        "TAVOLO_DATA_DIR": str(data_dir),
        "SECRET_KEY": "shared-cache-tests",
        "DJANGO_SETTINGS_MODULE": "tavolo_site.settings",
        "PYTHONPATH": str(PLATFORM_DIR),
        **settings,
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


COUNT_SCRIPT = """
import sys
import django
django.setup()
from django.core.cache import caches
cache = caches["strict"]
for _ in range(int(sys.argv[1])):
    cache.add("counted", 0, timeout=600)
    cache.incr("counted")
"""


def test_two_processes_counting_at_once_lose_no_count(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    command = [sys.executable, "-c", COUNT_SCRIPT, "200"]
    counters = [subprocess.Popen(command, cwd=PLATFORM_DIR, env=env) for _ in range(2)]
    assert [counter.wait(timeout=120) for counter in counters] == [0, 0]

    cache = SharedFileCache(str(tmp_path / "cache" / "strict"), {})
    assert cache.get("counted") == 400


def test_a_count_keeps_the_end_it_was_added_with(tmp_path: Path) -> None:
    cache = SharedFileCache(str(tmp_path), {})
    cache.add("count", 0, timeout=1)
    assert cache.incr("count") == 1
    time.sleep(1.2)
    assert cache.get("count") is None
    with pytest.raises(ValueError):
        cache.incr("count")


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{url} did not answer in {READY_SECONDS} s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def two_web_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Two web servers (one process each) sharing one data folder, with a user "grace"."""
    folder = tmp_path_factory.mktemp("shared-site")
    env = _environment(
        folder / "data",
        TAVOLO_LOGIN_FAILURES_PER_ACCOUNT="4",
        TAVOLO_ANONYMOUS_READ_RATE="4/minute",
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--no-input"], env=env, check=True, capture_output=True)
    make_user = (
        "from django.contrib.auth.models import User; "
        "User.objects.create_user('grace', password='grace-password-1')"
    )
    subprocess.run([*manage, "shell", "-c", make_user], env=env, check=True, capture_output=True)
    urls = []
    with ExitStack() as stack:
        for name in ("a", "b"):
            port = _free_port()
            log = folder / f"web-{name}.log"
            output = stack.enter_context(log.open("wb"))
            command = [sys.executable, "-m", "gunicorn", "tavolo_site.wsgi"]
            command += ["--bind", f"127.0.0.1:{port}", "--workers", "1"]
            process = subprocess.Popen(
                command, cwd=PLATFORM_DIR, env=env, stdout=output, stderr=subprocess.STDOUT
            )
            stack.callback(process.wait, 30)
            stack.callback(process.terminate)
            url = f"http://127.0.0.1:{port}"
            _wait_until_up(url, process, log)
            urls.append(url)
        yield urls[0], urls[1]


def _token(url: str, password: str) -> int:
    answer = httpx.post(f"{url}/api/token/", json={"username": "grace", "password": password})
    return answer.status_code


def test_wrong_passwords_at_two_processes_lock_the_account_at_both(
    two_web_servers: tuple[str, str],
) -> None:
    first, second = two_web_servers
    assert [_token(first, "wrong") for _ in range(2)] == [400, 400]
    assert [_token(second, "wrong") for _ in range(2)] == [400, 400]

    assert _token(first, "grace-password-1") == 429
    assert _token(second, "grace-password-1") == 429


def test_reads_at_two_processes_spend_one_budget(two_web_servers: tuple[str, str]) -> None:
    first, second = two_web_servers
    assert [httpx.get(f"{first}/").status_code for _ in range(2)] == [200, 200]
    assert [httpx.get(f"{second}/").status_code for _ in range(2)] == [200, 200]

    assert httpx.get(f"{first}/").status_code == 429
