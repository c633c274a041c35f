"""`tavolo standalone` for a long while, its worker SIGKILLed every few minutes.

    uv run python bench/soak.py [--minutes 120] [--kill-every 180] [--drain 180]

Runs the standalone site (SQLite, the folder broker, one worker, the scheduler)
in a new data folder on a free port, with the anonymous read budget lifted. A
client reads a page about every half second (the home page, the ladders, the
match list, the API's matches, /healthz, in turn; a read fails on an error, a
5xx or no answer in 10 s) while the worker's main process is SIGKILLed every
`--kill-every` seconds. After `--minutes`, no more kills: the matches created by
then are given `--drain` seconds to finish, and the site is stopped with
Ctrl-C. It prints:

- reads, failed reads and the longest outage (failed reads in a row, from the
  first failure to the next read that answered);
- for each kill, the seconds until /readyz said the worker answered again;
- the matches created, finished, failed, and left neither (lost), those played
  more than once (their run lost with the worker), and those whose ratings
  were counted other than once per bot (doubled or missing).

It exits 1 if a read failed, a match failed or was lost or doubled, or the
site stopped by itself. ``tests/platform/tavolo_site/test_soak.py`` runs it for 5
minutes. The figures are in docs/benchmarks.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Python puts this script's folder first on the import path; its platform.py would shadow the
# standard library's platform module.
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import os
import signal
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx

PAGES = ("/", "/ladders/", "/matches/", "/api/matches/", "/healthz")
READ_EVERY_SECONDS = 0.5
READ_TIMEOUT_SECONDS = 10.0
READY_SECONDS = 300.0
WORKER_BACK_SECONDS = 120.0
SETTINGS = {"TAVOLO_ANONYMOUS_READ_RATE": "1000000/minute"}
SERVICES = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "TAVOLO_DATA_DIR")
"""Left out of the environment: the standalone runs on its embedded defaults."""


@dataclass
class Reads:
    """What the client saw."""

    count: int = 0
    failed: int = 0
    longest_outage: float = 0.0
    failures: list[str] = field(default_factory=list)
    """The first few failures, as the client saw them."""


@dataclass
class Matches:
    created: int
    finished: int
    failed: int
    lost: int
    played_again: int
    ratings_not_once: int


@dataclass
class Soak:
    """A soak's figures."""

    seconds: float
    reads: Reads
    worker_back: list[float]
    matches: Matches
    site_ended: bool

    @property
    def held(self) -> bool:
        return (
            self.reads.failed == 0
            and not self.site_ended
            and len(self.worker_back) > 0
            and self.matches.failed == self.matches.lost == self.matches.ratings_not_once == 0
        )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Standalone:
    process: subprocess.Popen[bytes]
    url: str
    database: Path

    def worker_pid(self) -> int | None:
        """The worker's main process: the site's child that runs ``celery ... worker``."""
        pid = self.process.pid
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            except FileNotFoundError:
                continue
            if b"celery" in command and b"worker" in command:
                return int(child)
        return None

    def worker_answers(self) -> bool:
        try:
            answer = httpx.get(f"{self.url}/readyz", timeout=READ_TIMEOUT_SECONDS)
            return bool(answer.json()["checks"]["workers"]["ok"])
        except (httpx.HTTPError, ValueError, KeyError):
            return False


@contextmanager
def standalone_running(folder: Path) -> Iterator[Standalone]:
    """`tavolo standalone` with its data in `folder`, ready; Ctrl-C on leaving."""
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if key not in SERVICES} | SETTINGS
    command = [str(Path(sys.executable).with_name("tavolo")), "standalone", "--port", str(port)]
    command += ["--data-dir", str(folder / "data")]
    with (folder / "standalone.log").open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        site = Standalone(process, f"http://127.0.0.1:{port}", folder / "data" / "tavolo.sqlite3")
        try:
            deadline = time.monotonic() + READY_SECONDS
            while not site.worker_answers():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the standalone did not start: see {log.name}")
                time.sleep(1)
            yield site
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=120)


def _read_pages(site: Standalone, reads: Reads, stop: threading.Event) -> None:
    """Read the pages in turn until `stop`, counting failures and the longest outage."""
    failing_since: float | None = None
    with httpx.Client(timeout=READ_TIMEOUT_SECONDS) as client:
        while not stop.is_set():
            page = PAGES[reads.count % len(PAGES)]
            started = time.monotonic()
            try:
                failure = None
                status = client.get(f"{site.url}{page}").status_code
                if status >= 500:
                    failure = f"{page}: {status}"
            except httpx.HTTPError as error:
                failure = f"{page}: {type(error).__name__}: {error}"
            reads.count += 1
            now = time.monotonic()
            if failure is not None:
                reads.failed += 1
                if len(reads.failures) < 10:
                    reads.failures.append(failure)
                failing_since = started if failing_since is None else failing_since
            elif failing_since is not None:
                reads.longest_outage = max(reads.longest_outage, now - failing_since)
                failing_since = None
            stop.wait(max(0.0, READ_EVERY_SECONDS - (now - started)))


def _kill_worker(site: Standalone) -> float:
    """SIGKILL the worker's main process; the seconds until /readyz says a worker answers."""
    pid = site.worker_pid()
    if pid is None:
        raise RuntimeError("the standalone has no worker running")
    os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    while site.worker_pid() in (None, pid) or not site.worker_answers():
        if time.monotonic() - killed > WORKER_BACK_SECONDS:
            raise RuntimeError(f"no worker answered {WORKER_BACK_SECONDS:g} s after a kill")
        time.sleep(0.5)
    return time.monotonic() - killed


def _count(database: Path, query: str, *arguments: object) -> int:
    with sqlite3.connect(database, timeout=30) as connection:
        return int(connection.execute(query, arguments).fetchone()[0])


def _last_match(database: Path) -> int:
    return _count(database, "SELECT COALESCE(MAX(id), 0) FROM matches_match")


def _drain(database: Path, last: int, seconds: float) -> None:
    """Wait until the matches up to `last` are over, or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    playing = "SELECT COUNT(*) FROM matches_match WHERE id <= ? AND status IN ('queued', 'running')"
    while _count(database, playing, last) and time.monotonic() < deadline:
        time.sleep(2)


def _matches(database: Path, last: int) -> Matches:
    def count(where: str) -> int:
        return _count(
            database, f"SELECT COUNT(*) FROM matches_match WHERE id <= ? AND {where}", last
        )

    # A ranked match rates each of its bots once (a bot may sit in two seats).
    ratings_not_once = """
        SELECT COUNT(*) FROM matches_match AS m WHERE m.id <= ? AND m.kind = 'ranked'
        AND m.status = 'finished'
        AND (SELECT COUNT(DISTINCT bot_id) FROM matches_matchseat WHERE match_id = m.id)
        != (SELECT COUNT(*) FROM matches_ratingchange WHERE match_id = m.id)"""
    return Matches(
        created=count("1"),
        finished=count("status = 'finished'"),
        failed=count("status = 'failed'"),
        lost=count("status IN ('queued', 'running')"),
        played_again=count("attempts > 1"),
        ratings_not_once=_count(database, ratings_not_once, last),
    )


def soak(*, minutes: float, kill_every: float, drain: float, folder: Path) -> Soak:
    """Run the standalone `minutes` with a worker kill every `kill_every` seconds."""
    reads = Reads()
    stop = threading.Event()
    worker_back: list[float] = []
    began = time.monotonic()
    with standalone_running(folder) as site:
        reader = threading.Thread(target=_read_pages, args=(site, reads, stop), daemon=True)
        reader.start()
        end = began + minutes * 60
        while time.monotonic() + kill_every < end and site.process.poll() is None:
            time.sleep(kill_every)
            worker_back.append(_kill_worker(site))
            print(f"worker killed: answering again in {worker_back[-1]:.1f} s", flush=True)
        time.sleep(max(0.0, end - time.monotonic()))
        last = _last_match(site.database)
        _drain(site.database, last, drain)
        stop.set()
        reader.join()
        site_ended = site.process.poll() is not None
    return Soak(
        seconds=time.monotonic() - began,
        reads=reads,
        worker_back=worker_back,
        matches=_matches(site.database, last),
        site_ended=site_ended,
    )


def report(result: Soak) -> str:
    reads, matches = result.reads, result.matches
    back = result.worker_back
    lines = [
        f"ran {result.seconds / 60:.1f} min; "
        + ("the site ENDED by itself" if result.site_ended else "the site ran throughout"),
        f"reads: {reads.count}, failed {reads.failed}, longest outage {reads.longest_outage:.1f} s",
        *(f"  {failure}" for failure in reads.failures),
        f"worker kills: {len(back)}; answering again after "
        + (f"{min(back):.1f} to {max(back):.1f} s" if back else "-"),
        f"matches: {matches.created} created, {matches.finished} finished, "
        f"{matches.failed} failed, {matches.lost} lost; {matches.played_again} played again; "
        f"{matches.ratings_not_once} with ratings counted other than once a bot",
        "held" if result.held else "DID NOT HOLD",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=120.0)
    parser.add_argument("--kill-every", type=float, default=180.0, help="seconds between kills")
    parser.add_argument("--drain", type=float, default=180.0, help="seconds for the last matches")
    parser.add_argument("--keep", type=Path, help="keep the data folder and log here")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tavolo-soak-") as scratch:
        folder = options.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        result = soak(
            minutes=options.minutes,
            kill_every=options.kill_every,
            drain=options.drain,
            folder=folder,
        )
    print(report(result))
    sys.exit(0 if result.held else 1)


if __name__ == "__main__":
    main()
