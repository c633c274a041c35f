"""Run the whole site on this machine's PostgreSQL and Redis, as deploy's units would.

    uv run python deploy/run_local.py [--port 8000] [--match-workers 2] [--env NAME=VALUE ...]

Starts gunicorn, the match workers, a worker for the default queue and beat,
each restarted a second after it dies (as ``restart: unless-stopped`` or
``Restart=always`` would), and stops them all on SIGTERM or Ctrl-C. The site
gets a database of its own (``tavolo_local_<random>`` on 127.0.0.1:5432,
dropped at the end) and a prefix of its own for every Redis key (deleted at the
end), so it never meets another process on the machine. ``--database-url``
and ``--redis-url`` use given ones instead (the database is then kept).

While it runs, ``<data dir>/stack.json`` holds the site's address, its
database and Redis settings, and the pid of each process: the fault tests
(tests/faults/) read it to kill a worker. Each process logs to
``<data dir>/logs/<name>.log``.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import redis

REPOSITORY = Path(__file__).resolve().parent.parent
PLATFORM = REPOSITORY / "platform"
POSTGRES_USERS = ("postgres", "root")
RESTART_SECONDS = 1.0
STOP_SECONDS = 30.0
READY_SECONDS = 120.0


@dataclass
class Service:
    """One long-running process of the site, started again whenever it dies."""

    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None
    died_at: float | None = None
    restarts: int = 0
    log: Path = field(default_factory=Path)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def postgres_admin() -> tuple[psycopg.Connection, str]:
    """An autocommit connection to the server's `test` database, and the user it works as."""
    errors = []
    for user in POSTGRES_USERS:
        try:
            admin = psycopg.connect(
                host="127.0.0.1", port=5432, user=user, dbname="test", autocommit=True
            )
        except psycopg.OperationalError as error:
            errors.append(str(error))
            continue
        return admin, user
    raise RuntimeError(f"cannot connect to PostgreSQL as {POSTGRES_USERS}: {errors}")


def services(options: argparse.Namespace, data_dir: Path) -> list[Service]:
    python = sys.executable
    celery = [python, "-m", "celery", "-A", "tavolo_site"]
    worker = [*celery, "worker", "--loglevel", "INFO", "--without-gossip", "--without-mingle"]
    web = [python, "-m", "gunicorn", "tavolo_site.wsgi", "--bind", f"127.0.0.1:{options.port}"]
    web += ["--workers", str(options.web_workers), "--access-logfile", "-"]
    default = [*worker, "--queues", "default", "--concurrency", "1"]
    schedule = str(data_dir / "celerybeat-schedule")
    beat = [*celery, "beat", "--loglevel", "INFO", "--schedule", schedule]
    found = [
        Service("web", web),
        Service("worker-default", [*default, "--hostname", f"default-{options.name}@%h"]),
        Service("beat", beat),
    ]
    for number in range(1, options.match_workers + 1):
        matches = [*worker, "--queues", "matches", "--concurrency", str(options.concurrency)]
        hostname = f"matches-{number}-{options.name}@%h"
        found.append(Service(f"worker-matches-{number}", [*matches, "--hostname", hostname]))
    return found


class Stack:
    """The processes, their environment and what to clean up afterwards."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.own_data_dir = options.data_dir is None
        self.data_dir = Path(options.data_dir or tempfile.mkdtemp(prefix="tavolo-local-"))
        (self.data_dir / "logs").mkdir(parents=True, exist_ok=True)
        self.own_database = options.database_url is None
        self.database_name = f"tavolo_local_{options.name}"
        self.database_url = options.database_url
        self.redis_url = options.redis_url
        self.redis_prefix = f"tavolo-local-{options.name}:"
        self.services = services(options, self.data_dir)
        self.stopping = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.options.port}"

    def environment(self) -> dict[str, str]:
        environment = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "TAVOLO_REDIS_PREFIX": self.redis_prefix,
            "TAVOLO_DATA_DIR": str(self.data_dir),
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SETTINGS_MODULE": "tavolo_site.settings",
            "PYTHONUNBUFFERED": "1",
        }
        for setting in self.options.env:
            name, _, value = setting.partition("=")
            environment[name] = value
        return environment

    def create_database(self) -> None:
        if not self.own_database:
            return
        admin, user = postgres_admin()
        with admin:
            admin.execute(f'CREATE DATABASE "{self.database_name}"')
        self.database_url = f"postgres://{user}@127.0.0.1:5432/{self.database_name}"

    def prepare(self, environment: dict[str, str]) -> None:
        for command in (["migrate", "--no-input"], ["ladders_seed"]):
            subprocess.run(
                [sys.executable, "manage.py", *command],
                cwd=REPOSITORY,
                env=environment,
                check=True,
                stdout=subprocess.DEVNULL,
            )

    def start(self, service: Service, environment: dict[str, str]) -> None:
        service.log = self.data_dir / "logs" / f"{service.name}.log"
        with service.log.open("ab") as log:
            service.process = subprocess.Popen(
                service.argv, cwd=PLATFORM, env=environment, stdout=log, stderr=log
            )
        service.died_at = None

    def write_state(self) -> None:
        state = {
            "url": self.url,
            "database_url": self.database_url,
            "redis_url": self.redis_url,
            "redis_prefix": self.redis_prefix,
            "data_dir": str(self.data_dir),
            "pids": {
                service.name: service.process.pid
                for service in self.services
                if service.process is not None and service.process.poll() is None
            },
            "restarts": {service.name: service.restarts for service in self.services},
        }
        path = self.data_dir / "stack.json"
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(state, indent=2))
        partial.replace(path)

    def supervise(self, environment: dict[str, str]) -> None:
        """Start every service again a second after it dies, until asked to stop."""
        announced = False
        next_check = 0.0
        while not self.stopping:
            changed = False
            for service in self.services:
                assert service.process is not None
                if service.process.poll() is None:
                    continue
                now = time.monotonic()
                if service.died_at is None:
                    service.died_at = now
                    print(f"{service.name} exited ({service.process.returncode})", flush=True)
                elif now - service.died_at >= RESTART_SECONDS:
                    service.restarts += 1
                    self.start(service, environment)
                    changed = True
            if changed:
                self.write_state()
            if not announced and time.monotonic() >= next_check:
                next_check = time.monotonic() + 1.0
                if ready(self.url):
                    print(f"ready: {self.url} ({self.data_dir / 'stack.json'})", flush=True)
                    announced = True
            time.sleep(0.2)

    def stop(self) -> None:
        running = [s.process for s in self.services if s.process and s.process.poll() is None]
        for process in running:
            process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for process in running:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def clean(self) -> None:
        try:
            client = redis.Redis.from_url(self.redis_url)
            keys = list(client.scan_iter(match=f"{self.redis_prefix}*", count=1000))
            if keys:
                client.delete(*keys)
        except redis.RedisError as error:
            print(f"could not delete the Redis keys {self.redis_prefix}*: {error}", flush=True)
        if self.own_database and self.database_url:
            admin, _ = postgres_admin()
            with admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.database_name}" WITH (FORCE)')
        if self.own_data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)
        else:
            (self.data_dir / "stack.json").unlink(missing_ok=True)


def ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/readyz", timeout=3) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    parser.add_argument("--match-workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=2, help="matches per worker at once")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--database-url", help="use this database (kept) instead of a new one")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--data-dir", help="replays, logs and stack.json (default: a new one)")
    parser.add_argument("--name", default=secrets.token_hex(4), help="names the database, keys")
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE", help="a setting for all"
    )
    options = parser.parse_args()
    options.port = options.port or free_port()
    return options


def main() -> None:
    stack = Stack(arguments())

    def stop(signum: int, frame: object) -> None:
        stack.stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        stack.create_database()
        environment = stack.environment()
        stack.prepare(environment)
        for service in stack.services:
            stack.start(service, environment)
        stack.write_state()
        stack.supervise(environment)
    finally:
        stack.stop()
        stack.clean()
        print("stopped", flush=True)


if __name__ == "__main__":
    main()
