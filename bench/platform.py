"""Ranked matches through the whole platform, beside `tavolo play` with the same jailed bots.

    uv run python bench/platform.py [--matches 200] [--workers 1 2] [--baseline-matches N]

For each number of match workers, the site runs as deploy/run_local.py starts
it (gunicorn, the workers with two matches each at once, beat) on this
machine's PostgreSQL and Redis, in a database and under Redis keys of its own,
with the ladders' own scheduling off. Four accepted bots made from one Mia
example file are seated in `--matches` ranked 4-player Mia matches created at
once (`matches_create`, as the scheduler makes them), and the clock runs until
every one is played in the jail, stored and rated. Then the result is checked:
no match lost, failed or rated twice (each bot's games and rating history).

The baseline, in the same run: `tavolo play mia` with the same four files,
jailed, the same number of matches, as users run it: one match per CPU at
once (its default `--jobs`), and also with `--jobs 1`, one match after
another. The default is measured before the platform and again after it, and
the platform compared with the mean of the two, so that a load that changes
during the run weighs on both sides. Target: the platform at 0.7x `tavolo
play`'s default matches per hour or better; the ratio to one process is
printed beside it. Two worker processes stand in for two worker hosts.

Each platform run also prints the CPU it cost per match by process, read from
/proc before and after the matches (so the bench must run on the database's
host as a user who may read it): the match workers' Celery processes (the
runner and everything the worker does around a match; the jails' processes
are not counted), the default worker, beat, gunicorn, and the PostgreSQL
server processes serving the site's database.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# This script shares its name with the stdlib's `platform`: keep its folder off the path.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
REPOSITORY = HERE.parent
sys.path.insert(0, str(REPOSITORY / "platform"))

import psycopg  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.cli.play import default_jobs  # noqa: E402

BOT_FILE = REPOSITORY / "platform" / "bots" / "examples" / "mia_voucher.py"
LADDER = "mia-classic-4"
SEATS = 4
RUN_LOCAL = REPOSITORY / "deploy" / "run_local.py"
READY_SECONDS = 300


CPU_PARTS = {
    "worker-matches": "match workers (Celery processes)",
    "worker-default": "default worker",
    "beat": "beat",
    "web": "gunicorn",
}


def process_stat(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (the state first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_cpu(pid: int, *, ended_children: bool = False) -> float:
    """CPU seconds so far of one process, all its threads, or with `ended_children` of
    its children that ended and were waited for; 0 if it is gone."""
    try:
        fields = process_stat(pid)
    except OSError:
        return 0.0
    first = 13 if ended_children else 11
    return (int(fields[first]) + int(fields[first + 1])) / os.sysconf("SC_CLK_TCK")


def process_children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(process_stat(int(entry.name))[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry.name))
    return children


def site_cpu(state: dict, database: str, admin: psycopg.Connection) -> dict[str, float]:
    """CPU seconds so far by part of the site: each service's processes (a worker's pool
    included, the jails it starts not), the database server processes serving
    `database`, and those of any database that ended (PostgreSQL starts one per connection)."""
    children = process_children()
    spent: dict[str, float] = dict.fromkeys(CPU_PARTS.values(), 0.0)
    for service, pid in state["pids"].items():
        part = CPU_PARTS[service.rstrip("-0123456789") if "matches" in service else service]
        family = [pid, *children.get(pid, [])]  # the Celery pool's processes, or gunicorn's
        spent[part] += sum(process_cpu(member) for member in family)
    backends = admin.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = %s", [database]
    ).fetchall()
    spent["PostgreSQL: the site's connections"] = sum(process_cpu(pid) for (pid,) in backends)
    (own,) = admin.execute("SELECT pg_backend_pid()").fetchone() or (0,)
    server = int(process_stat(own)[1])
    spent["PostgreSQL: connections that ended, any database's"] = process_cpu(
        server, ended_children=True
    )
    return spent


def tavolo_play(files: list[Path], matches: int, jobs: int | None = None) -> float:
    """Seconds `tavolo play` takes for `matches` jailed matches of `files`, with `--jobs`
    if given, else its default (one match per CPU at once)."""
    tavolo = Path(sys.executable).parent / "tavolo"
    command = [str(tavolo), "play", "mia", *map(str, files), "--games", str(matches), "--json"]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


class Site:
    """deploy/run_local.py on a database the bench made, stopped on leaving."""

    def __init__(
        self, *, name: str, database_url: str, workers: int, concurrency: int, folder: Path
    ) -> None:
        self.folder = folder
        command = [sys.executable, str(RUN_LOCAL), "--name", name]
        command += ["--database-url", database_url, "--match-workers", str(workers)]
        command += ["--concurrency", str(concurrency)]
        command += ["--data-dir", str(folder), "--env", "TAVOLO_MATCHES_PER_MINUTE=0"]
        self.log = (folder / "run_local.log").open("wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log)

    def wait_ready(self) -> dict:
        deadline = time.monotonic() + READY_SECONDS
        log = self.folder / "run_local.log"
        while b"ready:" not in log.read_bytes():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the site did not start:\n{log.read_text()}")
            time.sleep(1)
        return json.loads((self.folder / "stack.json").read_text())

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(120)
        self.log.close()


def django_setup(state: dict) -> None:
    """This process on the site's database and broker, as its workers are."""
    os.environ.update(
        DATABASE_URL=state["database_url"],
        REDIS_URL=state["redis_url"],
        TAVOLO_REDIS_PREFIX=state["redis_prefix"],
        TAVOLO_DATA_DIR=state["data_dir"],
        SECRET_KEY="bench",
        DJANGO_SETTINGS_MODULE="tavolo_site.settings",
    )
    import django

    django.setup()
    import tavolo_site.celery  # noqa: F401  (the app the tasks are sent with)


def bots_make(source: str) -> list:
    """Four accepted bots of one user on the Mia ladder, made once."""
    from accounts.services import user_create
    from bots.models import Bot, BotVersion
    from ladders.models import Ladder

    ladder = Ladder.objects.get(slug=LADDER)
    owner = user_create(username=f"bench-{secrets.token_hex(3)}", password=secrets.token_hex(12))
    versions = []
    for number in range(SEATS):
        text = f"{source}\n# bench bot {number}\n"
        bot = Bot.objects.create(owner=owner, ladder=ladder, name=f"voucher-{number}")
        version = BotVersion.objects.create(
            bot=bot,
            number=1,
            source=text,
            sha256=secrets.token_hex(32),
            size=len(text),
            status=BotVersion.Status.ACCEPTED,
            start_rating=bot.rating,
            start_deviation=bot.deviation,
            rating=bot.rating,
            deviation=bot.deviation,
        )
        bot.current_version = version
        bot.save()
        versions.append(version)
    return versions


def matches_play(
    versions: list, count: int, cpu: Callable[[], dict[str, float]]
) -> tuple[float, list[int], dict[str, float]]:
    """Create `count` ranked matches at once; seconds until all are over, their ids, and
    the CPU seconds `cpu()` counted meanwhile, by part."""
    from django.db import transaction

    from ladders.models import Ladder
    from matches.models import Match
    from matches.services import matches_create

    ladder = Ladder.objects.get(slug=LADDER)
    before = cpu()
    started = time.perf_counter()
    with transaction.atomic():
        made = matches_create(ladder=ladder, kind=Match.Kind.RANKED, tables=[versions] * count)
    ids = [match.pk for match in made]
    over = (Match.Status.FINISHED, Match.Status.FAILED)
    while Match.objects.filter(pk__in=ids).exclude(status__in=over).exists():
        time.sleep(0.2)
    seconds = time.perf_counter() - started
    after = cpu()
    return seconds, ids, {part: after[part] - before[part] for part in after}


def check(versions: list, ids: list[int], played_before: int) -> str:
    """Every match finished once and moved each bot once; what was found if not."""
    from bots.models import Bot
    from matches.models import Match
    from ranked.models import RatingChange

    statuses = set(Match.objects.filter(pk__in=ids).values_list("status", flat=True))
    if statuses != {Match.Status.FINISHED}:
        return f"statuses {statuses}"
    changes = RatingChange.objects.filter(match_id__in=ids).count()
    if changes != SEATS * len(ids):
        return f"{changes} rating changes for {len(ids)} matches"
    for version in versions:
        bot = Bot.objects.get(pk=version.bot_id)
        if bot.games != played_before + len(ids):
            return f"{bot.name} counts {bot.games} games, not {played_before + len(ids)}"
    return "ok"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--baseline-matches", type=int, help="matches for tavolo play (default: --matches)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=2, help="matches each worker process plays at once"
    )
    options = parser.parse_args()
    load = os.getloadavg()[0]
    console = Console(width=120)
    name = secrets.token_hex(4)
    database = f"tavolo_bench_{name}"
    admin = psycopg.connect(
        host="127.0.0.1", port=5432, user="postgres", dbname="test", autocommit=True
    )
    admin.execute(f'CREATE DATABASE "{database}"')
    database_url = f"postgres://postgres@127.0.0.1:5432/{database}"
    source = BOT_FILE.read_text()
    rows = []
    cpu_rows: list[tuple[int, dict[str, float]]] = []
    versions: list = []
    try:
        with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as temporary:
            folder = Path(temporary)
            files = []
            for number in range(SEATS):
                path = folder / f"voucher_{number}.py"
                path.write_text(f"{source}\n# bench bot {number}\n")
                files.append(path)
            count = options.baseline_matches or options.matches
            console.print(f"tavolo play: {count} matches, jailed, by default and with --jobs 1 ...")
            before = count / tavolo_play(files, count) * 3600
            one_process = count / tavolo_play(files, count, jobs=1) * 3600
            default_label = f"`tavolo play`, default --jobs ({default_jobs()})"
            rows.append((f"{default_label}, before", before, "-"))
            rows.append(("`tavolo play --jobs 1`", one_process, "-"))
            played = 0
            for workers in options.workers:
                console.print(f"platform with {workers} match worker(s) ...")
                data = folder / f"site-{workers}"
                data.mkdir()
                site = Site(
                    name=name,
                    database_url=database_url,
                    workers=workers,
                    concurrency=options.concurrency,
                    folder=data,
                )
                try:
                    state = site.wait_ready()
                    if not versions:
                        django_setup(state)
                        versions = bots_make(source)
                    seconds, ids, spent = matches_play(
                        versions,
                        options.matches,
                        functools.partial(site_cpu, state, database, admin),
                    )
                    cpu_rows.append((workers, spent))
                    verdict = check(versions, ids, played)
                    played += len(ids)
                finally:
                    site.stop()
                per_hour = options.matches / seconds * 3600
                label = f"platform, {workers} worker process(es) x {options.concurrency} matches"
                rows.append((label, per_hour, verdict))
            console.print("tavolo play again, by default ...")
            after = count / tavolo_play(files, count) * 3600
            rows.append((f"{default_label}, after", after, "-"))
            baseline = (before + after) / 2
    finally:
        if versions:
            from django.db import connections

            connections.close_all()
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.close()
    table = Table(
        title=f"{options.matches} ranked 4-player Mia matches, jailed bots "
        f"(load {load:.2f} before, {os.getloadavg()[0]:.2f} after)"
    )
    for column in ("runs", "matches per hour", "vs tavolo play", "vs --jobs 1", "lost or doubled"):
        table.add_column(column)
    for label, per_hour, verdict in rows:
        ratios = (f"{per_hour / baseline:.2f}x", f"{per_hour / one_process:.2f}x")
        table.add_row(label, f"{per_hour:,.0f}", *ratios, verdict)
    console.print(table)
    console.print(
        "vs tavolo play: against the mean of its default before and after; "
        "target: the platform at 0.7x or better"
    )
    cpu_table = Table(title=f"CPU ms per match, by part of the site ({options.matches} matches)")
    cpu_table.add_column("part")
    for workers, _ in cpu_rows:
        cpu_table.add_column(f"{workers} worker process(es)", justify="right")
    for part in cpu_rows[0][1] if cpu_rows else []:
        figures = [spent[part] / options.matches * 1e3 for _, spent in cpu_rows]
        cpu_table.add_row(part, *(f"{figure:.1f}" for figure in figures))
    console.print(cpu_table)


if __name__ == "__main__":
    main()
