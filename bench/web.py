"""The site under load: pages and frames with 100 bots and 100,000 finished matches.

    uv run python bench/web.py [--matches 100000] [--bots 100] [--clients 20] [--requests 200]

Makes a fresh PostgreSQL database of its own name (dropped at the end), migrates
it, fills it with bulk inserts (one Muggins ladder, `--bots` bots, `--matches`
finished ranked matches with their seats, rating changes and the bots' summed-up
records, and one long Muggins match with a real replay), then serves the site
with gunicorn on a free port (`--workers` processes of `--threads` threads; one
thread is gunicorn's sync worker) and loads, from `--clients` clients at once, a
bare Django "hello" view (the floor), the ladder, a bot, the match list, a match
page, and the full frames of the long replay (made and stored as a finish has
them made). Each page is asked for first by every client at once, cold, as a
crowd arriving on a page nobody has asked for (the slowest of those is printed
on its own), then `--requests` times, `--clients` at a time, for the p50 and p95,
with the CPU time the server's workers and the clients spent per request.

The clients are coroutines of one asyncio loop, each on its own keep-alive
connection, sending a bare HTTP/1.1 GET and reading the answer's bytes without
decoding them: the clients share the machine's cores with the server, and a
cheap client leaves them to it (20 threads of a full HTTP library cost about as
much CPU per request as the server's answer of a kept page).
Needs PostgreSQL on ``$BENCH_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432``).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Python puts this script's folder first on the import path; it holds bench/platform.py and
# bench/sandbox.py, which would shadow the standard library's platform module and the
# sandbox package.
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import asyncio
import gc
import os
import random
import socket
import statistics
import subprocess
import tempfile
import textwrap
import time
from datetime import UTC, datetime, timedelta

import psycopg
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
SERVER = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
BATCH = 5000

BENCH_SETTINGS = """
from tavolo_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench_urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
LOGGING = {"version": 1, "disable_existing_loggers": False}
"""

BENCH_URLS = """
from django.http import HttpResponse
from django.urls import include, path


def hello(request):
    return HttpResponse("hello")


urlpatterns = [path("hello/", hello), path("", include("tavolo_site.urls"))]
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fill(bots: int, matches: int) -> dict[str, str]:
    """Fill the database named by DATABASE_URL; return the paths to load."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    from arena.bots.inprocess import InProcessBot
    from arena.bots.registry import builtin_bots
    from arena.replay import dumps_replay
    from arena.runner import play_match
    from bots.house import ladders_seed
    from bots.models import Bot, BotVersion
    from matches.models import Match, MatchSeat
    from ranked.models import RatingChange
    from ranked.tallies import tallies_rebuild

    ladder = next(ladder for ladder in ladders_seed() if ladder.slug == "muggins-2")
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"user{index}") for index in range(bots // 2)
    )
    made = Bot.objects.bulk_create(
        Bot(owner=users[index % len(users)], ladder=ladder, name=f"bot{index}")
        for index in range(bots)
    )
    versions = BotVersion.objects.bulk_create(
        BotVersion(bot=bot, number=1, sha256="0" * 64, size=1, status="accepted") for bot in made
    )
    for bot, version in zip(made, versions, strict=True):
        bot.current_version = version
    Bot.objects.bulk_update(made, ["current_version"])

    rng = random.Random(1)
    ratings = {bot.pk: 1500.0 for bot in made}
    start = datetime.now(UTC) - timedelta(days=30)
    for first in range(0, matches, BATCH):
        count = min(BATCH, matches - first)
        when = [start + timedelta(seconds=(first + index) * 20) for index in range(count)]
        batch = Match.objects.bulk_create(
            Match(
                ladder=ladder,
                kind="ranked",
                status="finished",
                seed="0" * 32,
                queued_at=moment,
                started_at=moment,
                finished_at=moment,
                result={"places": [1, 2]},
                decisions=100,
                replay="replays/none.json.gz",
            )
            for moment in when
        )
        seats, changes = [], []
        for match, moment in zip(batch, when, strict=True):
            pair = rng.sample(range(bots), 2)
            for seat, index in enumerate(pair):
                bot, version = made[index], versions[index]
                seats.append(
                    MatchSeat(match=match, seat=seat, bot=bot, bot_version=version, place=seat + 1)
                )
                before = ratings[bot.pk]
                ratings[bot.pk] = before + (8.0 if seat == 0 else -8.0)
                changes.append(
                    RatingChange(
                        match=match,
                        bot=bot,
                        version=version,
                        before=before,
                        after=ratings[bot.pk],
                        games_before=0,
                        created_at=moment,
                    )
                )
        MatchSeat.objects.bulk_create(seats)
        RatingChange.objects.bulk_create(changes)
    for bot in made:
        bot.rating = ratings[bot.pk]
    Bot.objects.bulk_update(made, ["rating"])
    tallies_rebuild()  # the records a finish keeps, as the migration counts them

    strong = builtin_bots("muggins")["strong"]
    game = ladder.make_game()
    record = play_match(game, [InProcessBot(f"bot{seat}", strong(seat)) for seat in (0, 1)])
    long_match = Match.objects.create(
        ladder=ladder,
        kind="ranked",
        status="finished",
        seed=format(record.seed, "032x"),
        queued_at=start,
        finished_at=start,
        result=record.result,
        decisions=record.decisions,
        replay=default_storage.save(
            "replays/long.json.gz", ContentFile(dumps_replay(record.replay, compress=True))
        ),
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=long_match, seat=seat, bot=made[seat], bot_version=versions[seat], place=1)
        for seat in (0, 1)
    )
    print(f"long replay: {len(record.replay['events'])} events", file=sys.stderr)
    return {
        "hello": "/hello/",
        "ladder": f"/ladders/{ladder.slug}/",
        "bot": f"/bots/{made[0].pk}/",
        "match list": "/matches/",
        "match": f"/matches/{batch[-1].pk}/",
        "frames (long Muggins)": f"/matches/{long_match.pk}/frames/full.json",
    }


class Connection:
    """One client's keep-alive HTTP/1.1 connection, opened again when the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str) -> float:
        """Seconds from sending a GET of `path` to the last byte of its answer, which must be
        a 200; the body is read, not decoded, as a browser would receive it before using it."""
        started = time.perf_counter()
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            "Accept-Encoding: gzip\r\n\r\n".encode()
        )
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower().split("\r\n")
        fields = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
        await reader.readexactly(int(fields["content-length"]))
        elapsed = time.perf_counter() - started
        if fields.get("connection") == "close":
            self.close()
        if head[0].split()[1] != "200":
            raise RuntimeError(f"{path}: {head[0]}")
        return elapsed

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def measured(
    port: int, path: str, clients: int, requests: int, workers: list[int]
) -> tuple[list[float], list[float], float, float]:
    """Seconds of the first GETs of `path`, one per client all at once on the cold page,
    then of each of `requests` GETs, `clients` at a time (each client sends its next one as
    its last is answered); and the CPU seconds the server's `workers` and this process
    spent on those `requests`."""
    connections = [Connection(port) for _ in range(clients)]
    first = await asyncio.gather(*(connection.get(path) for connection in connections))
    tickets = iter(range(requests))
    times: list[float] = []

    async def client(connection: Connection) -> None:
        for _ in tickets:
            times.append(await connection.get(path))
        connection.close()

    server_before, client_before = cpu_seconds(workers), time.process_time()
    await asyncio.gather(*(client(connection) for connection in connections))
    server_cpu = cpu_seconds(workers) - server_before
    return first, times, server_cpu, time.process_time() - client_before


async def answered(port: int, path: str) -> None:
    connection = Connection(port)
    await connection.get(path)
    connection.close()


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of these processes so far."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    options = parser.parse_args()

    name = f"tavolo_bench_web_{os.getpid()}"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    folder = Path(tempfile.mkdtemp(prefix="tavolo-bench-web-"))
    (folder / "bench_settings.py").write_text(textwrap.dedent(BENCH_SETTINGS))
    (folder / "bench_urls.py").write_text(textwrap.dedent(BENCH_URLS))
    environment = {
        **os.environ,
        "DATABASE_URL": f"{SERVER}/{name}",
        "SECRET_KEY": "bench-web-" + "x" * 40,
        "TAVOLO_DATA_DIR": str(folder / "data"),
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT / "platform"), str(ROOT)]),
        "REDIS_URL": "",
        # The clients are one address reading far past a visitor's budget: time pages, not 429s.
        "TAVOLO_ANONYMOUS_READ_RATE": "1000000/minute",
    }
    os.environ.update(environment)
    sys.path[:] = [str(folder), str(ROOT / "platform"), str(ROOT), *sys.path]
    server = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
        started = time.perf_counter()
        paths = fill(options.bots, options.matches)
        with psycopg.connect(f"{SERVER}/{name}", autocommit=True) as filled:
            filled.execute("ANALYZE")  # as autovacuum would after such a load
        print(f"filled in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        # The clients share this process with what the fill left: out of the collector's
        # sight, it does not pause them as a visitor's browser would never be paused.
        gc.collect()
        gc.freeze()
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable, "-m", "gunicorn", "tavolo_site.wsgi",
                "--bind", f"127.0.0.1:{port}",
                "--workers", str(options.workers), "--threads", str(options.threads),
                "--log-level", "warning", "--timeout", "300", "--keep-alive", "60",
            ],
            cwd=ROOT,
        )  # fmt: skip
        for _ in range(100):
            try:
                asyncio.run(answered(port, "/hello/"))
                break
            except OSError:
                time.sleep(0.2)
        workers = children(server.pid)
        table = Table(title=f"{options.clients} clients, {options.requests} requests per page")
        columns = ("page", "cold: slowest of the first", "p50", "p95", "server CPU", "client CPU")
        for column in columns:
            table.add_column(column, justify="left" if column == "page" else "right")
        for label, path in paths.items():
            first, times, server_cpu, client_cpu = asyncio.run(
                measured(port, path, options.clients, options.requests, workers)
            )
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            table.add_row(
                label,
                f"{max(first) * 1000:.0f} ms",
                f"{statistics.median(times) * 1000:.0f} ms",
                f"{p95 * 1000:.0f} ms",
                f"{server_cpu / len(times) * 1000:.2f} ms",
                f"{client_cpu / len(times) * 1000:.2f} ms",
            )
        Console().print(table)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
