"""The match worker's own cost per match, apart from the match: claim, seats, store, rate.

    uv run python bench/worker.py [--matches 30]

In this process, on a scratch PostgreSQL database of its own (127.0.0.1:5432,
dropped at the end), `matches.services.match_run` (what the worker's task
runs) plays `--matches` ranked 4-player Mia matches between four accepted
copies of the `tavolo new-bot` template, jailed, one after another. Each of
its steps is timed by wrapping the service it calls: the claim, opening the
four seats (writing each bot's file and starting its jail), the match itself
(`play_match`, less the live progress it writes for spectators, shown on its
own line), storing the replay and logs, and finishing (the result, the
ratings and the tallies, in one transaction), making and storing the viewer's
frames, in wall-clock time and in CPU
time of this process (which a loaded machine inflates far less; the jailed
bots' is not in it) and of the PostgreSQL server process serving this
process's connection (read from its /proc/<pid>/schedstat, so the bench must
run on the database's host as a user who may read it). The overhead per match is the
whole `match_run` less the match itself: read `bench/platform.py`'s end to end
figure against it. Without a broker the matches are not queued to Celery;
the cache is the process's own memory.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent / "platform"))

import psycopg  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.cli.new_bot import starter_source  # noqa: E402

_platform_file = importlib.util.spec_from_file_location("bench_platform", HERE / "platform.py")
assert _platform_file is not None and _platform_file.loader is not None
platform_bench = importlib.util.module_from_spec(_platform_file)  # for its bots
_platform_file.loader.exec_module(platform_bench)
SEATS = 4
spent: dict[str, list[float]] = defaultdict(list)
spent_cpu: dict[str, list[float]] = defaultdict(list)
spent_database: dict[str, list[float]] = defaultdict(list)


def database_cpu() -> float:
    """CPU seconds so far of the PostgreSQL server process serving this process's
    connection (opened if it is not)."""
    from django.db import connection

    connection.ensure_connection()
    if getattr(connection, "bench_backend", None) is None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            connection.bench_backend = cursor.fetchone()[0]  # type: ignore[attr-defined]
    schedstat = Path(f"/proc/{connection.bench_backend}/schedstat").read_text()  # type: ignore[attr-defined]
    return int(schedstat.split()[0]) / 1e9


def timed(step: str, function: Callable[..., Any], *, database: bool = True) -> Callable[..., Any]:
    """`function`, adding the seconds of each call to `spent[step]`, the CPU seconds of
    this process meanwhile to `spent_cpu[step]`, and those of its database server
    process to `spent_database[step]` (not for a step called at every decision, where
    reading them would cost more than the step: `database` False)."""
    database_now = database_cpu if database else lambda: 0.0

    def call(*args: Any, **kwargs: Any) -> Any:
        started, cpu, server = time.perf_counter(), time.process_time(), database_now()
        try:
            return function(*args, **kwargs)
        finally:
            spent[step].append(time.perf_counter() - started)
            spent_cpu[step].append(time.process_time() - cpu)
            spent_database[step].append(database_now() - server)

    return call


def django_setup(database_url: str, data: str) -> None:
    os.environ.update(
        DATABASE_URL=database_url,
        TAVOLO_DATA_DIR=data,
        SECRET_KEY="bench",
        DJANGO_SETTINGS_MODULE="tavolo_site.settings",
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def instrument() -> None:
    """Wrap the steps of `match_run` in `timed`."""
    from matches import live, playing, services

    services.match_claimed = timed("claim", services.match_claimed)
    services.match_record_play = timed("seats and match", services.match_record_play)
    playing._open_seat = timed("open the seats", playing._open_seat)
    playing.play_match = timed("match (play_match)", playing.play_match)
    live.ProgressWriter.__call__ = timed(
        "  of which live progress", live.ProgressWriter.__call__, database=False
    )
    services.match_outcome_store = timed("store replay and logs", services.match_outcome_store)
    services.match_finish_when_written = timed(
        "finish: result, ratings, tallies", services.match_finish_when_written
    )


def bots_make(source: str) -> list:
    """Four accepted bots of one user on the 4-player Mia ladder (as bench/platform.py makes)."""
    from ladders.models import Ladder

    Ladder.objects.get_or_create(
        slug=platform_bench.LADDER, defaults={"name": "Mia", "game": "mia", "seats": SEATS}
    )
    return platform_bench.bots_make(source)


def run_matches(versions: list, count: int) -> None:
    from matches.models import Match
    from matches.services import match_run, matches_create

    ladder = versions[0].bot.ladder
    matches = matches_create(
        ladder=ladder, kind=Match.Kind.RANKED, tables=[versions] * count, enqueue=False
    )
    run = timed("match_run, in all", match_run)
    for match in matches:
        assert run(match_id=match.pk, worker="bench"), f"match {match.pk} was not played"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    options = parser.parse_args()
    database = f"tavolo_bench_worker_{secrets.token_hex(4)}"
    admin = psycopg.connect(
        host="127.0.0.1", port=5432, user="postgres", dbname="test", autocommit=True
    )
    admin.execute(f'CREATE DATABASE "{database}"')
    load = os.getloadavg()[0]
    try:
        with tempfile.TemporaryDirectory(prefix="tavolo-bench-worker-") as data:
            django_setup(f"postgres://postgres@127.0.0.1:5432/{database}", data)
            instrument()
            versions = bots_make(starter_source("mia"))
            run_matches(versions, 2)  # warm: the jail probe, the pool
            for figures in (spent, spent_cpu, spent_database):
                figures.clear()
            run_matches(versions, options.matches)
        from django.db import connections

        connections.close_all()
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    count = options.matches
    table = Table(
        title=f"match_run per match, {count} matches (load {load:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after)",
        title_justify="left",
    )
    columns = ("step", "ms per match", "median ms", "CPU ms per match", "PostgreSQL CPU ms")
    for column in columns:
        table.add_column(column, justify="left" if column == "step" else "right")
    for step, values in spent.items():
        table.add_row(
            step,
            f"{sum(values) / count * 1e3:.1f}",
            f"{statistics.median(values) * 1e3:.1f}",
            f"{sum(spent_cpu[step]) / count * 1e3:.1f}",
            f"{sum(spent_database[step]) / count * 1e3:.1f}",
        )
    overhead = [
        (
            sum(figures["match_run, in all"])
            - sum(figures["match (play_match)"])
            + sum(figures["  of which live progress"])
        )
        / count
        * 1e3
        for figures in (spent, spent_cpu, spent_database)
    ]
    table.add_row(
        "overhead: in all less the match",
        f"{overhead[0]:.1f}",
        "",
        f"{overhead[1]:.1f}",
        f"{overhead[2]:.1f}",
    )
    Console().print(table)


if __name__ == "__main__":
    main()
