"""The real stack for integration tests: PostgreSQL, Redis and a Celery worker process.

Each test gets a fresh PostgreSQL database, migrated, and this process's
default database connection is pointed at it for the test (and for every
thread the test starts). Celery sends to a Redis server of its own (on a free
port, so test runs sharing the host never share queues), and a
real worker, started as a child process with the same settings, consumes both
queues. The shared fixtures' users, ladders and bots are made in that database.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import dj_database_url
import kombu.pools
import pytest
import redis
from django.core.management import call_command
from django.db import connections
from pytest_django.fixtures import Settings

from deploy.run_local import postgres_admin
from tavolo_site.celery import app as celery_app

PLATFORM_DIR = Path(__file__).parents[3] / "platform"
WORKER_READY_SECONDS = 60


@contextmanager
def default_database(url: str) -> Iterator[None]:
    """Point Django's default connection at `url`, in this thread and any new one."""
    saved_settings = connections.settings["default"]
    saved_connection = connections["default"]
    configured = connections.configure_settings({"default": dj_database_url.parse(url)})
    connections.settings["default"] = configured["default"]
    del connections["default"]
    try:
        yield
    finally:
        connections["default"].close()
        connections.settings["default"] = saved_settings
        connections["default"] = saved_connection


@contextmanager
def celery_broker(url: str, key_prefix: str = "") -> Iterator[None]:
    """Make this process's Celery app send to `url`, its keys under `key_prefix` if given."""
    conf = celery_app.conf
    saved = conf.broker_url, conf.broker_transport_options

    def reset_pools() -> None:
        # kombu keeps its pools by broker address: close and forget them all, or the next
        # test on the same address would get a closed pool back.
        kombu.pools.reset()
        celery_app._pool = None
        celery_app.amqp._producer_pool = None
        kombu.pools.reset()  # kombu keeps producer pools by URL: a closed one would be reused

    reset_pools()
    options = {"global_keyprefix": key_prefix} if key_prefix else {}
    conf.broker_url, conf.broker_transport_options = url, options
    try:
        yield
    finally:
        reset_pools()
        conf.broker_url, conf.broker_transport_options = saved


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database, dropped after the test."""
    admin, user = postgres_admin()
    name = f"tavolo_it_{secrets.token_hex(4)}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        yield f"postgres://{user}@127.0.0.1:5432/{name}"
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def postgres(postgres_url: str, django_db_blocker: pytest.FixtureRequest) -> Iterator[str]:
    """This process on the fresh database, migrated."""
    with django_db_blocker.unblock(), default_database(postgres_url):
        call_command("migrate", verbosity=0)
        yield postgres_url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """A Redis server of the test's own on a free port, which the test may stop and start."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(self.folder),
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "the test's Redis did not start"
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_broker(own_redis: RedisServer) -> Iterator[str]:
    """Celery's broker: a Redis server of the test's own, so no other run shares its queues."""
    with celery_broker(own_redis.url):
        yield own_redis.url


@dataclass(frozen=True)
class RunningWorker:
    """A Celery worker process started for a test, with the file it logs to."""

    process: subprocess.Popen[bytes]
    name: str
    log: Path


@contextmanager
def worker_running(env: dict[str, str], log_path: Path) -> Iterator[RunningWorker]:
    """A real Celery worker on both queues in `env`, stopped on leaving."""
    name = f"integration-{secrets.token_hex(3)}@localhost"
    log = log_path.open("wb")
    command = [
        sys.executable, "-m", "celery", "-A", "tavolo_site", "worker",
        "--queues", "matches,default", "--concurrency", "2", "--hostname", name,
        "--loglevel", "INFO", "--without-gossip", "--without-mingle",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=PLATFORM_DIR, env=env, stdout=log, stderr=log)
    try:
        _wait_until_ready(process, name, log_path)
        yield RunningWorker(process, name, log_path)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture
def start_worker(
    postgres: str, redis_broker: str, media_root: Path, settings: Settings, tmp_path: Path
) -> Iterator[Callable[..., RunningWorker]]:
    """Start real workers sharing this test's database, broker and files.

    ``start_worker(TAVOLO_LOG_FORMAT="json")`` adds or overrides environment variables.
    """
    data_dir = media_root.parent
    settings.MEDIA_ROOT = data_dir / "media"
    base = {
        **os.environ,
        "DATABASE_URL": postgres,
        "REDIS_URL": redis_broker,
        "TAVOLO_DATA_DIR": str(data_dir),
        "SECRET_KEY": "integration-tests",
        "DJANGO_SETTINGS_MODULE": "tavolo_site.settings",
    }
    with ExitStack() as stack:

        def start(**environment: str) -> RunningWorker:
            log = tmp_path / f"worker-{secrets.token_hex(3)}.log"
            return stack.enter_context(worker_running({**base, **environment}, log))

        yield start


@pytest.fixture
def worker(start_worker: Callable[..., RunningWorker]) -> subprocess.Popen[bytes]:
    """A real Celery worker on both queues, sharing this test's database, broker and files."""
    return start_worker().process


def _wait_until_ready(process: subprocess.Popen[bytes], name: str, log: Path) -> None:
    deadline = time.monotonic() + WORKER_READY_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the worker exited:\n{log.read_text()}")
        if celery_app.control.ping(destination=[name], timeout=1.0):
            return
    raise RuntimeError(f"the worker was not ready in {WORKER_READY_SECONDS}s:\n{log.read_text()}")


@pytest.fixture
def database(postgres: str) -> None:
    """The named users, ladders and bots of the shared fixtures go to PostgreSQL."""


def _wait_for(check: Callable[[], bool], *, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {seconds}s waiting for {what}")
        time.sleep(0.2)


@pytest.fixture
def wait_for() -> Callable[..., None]:
    """Poll a check until it is true: ``wait_for(check, seconds=30, what="...")``."""
    return _wait_for
