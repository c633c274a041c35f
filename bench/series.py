"""A local series of four jailed template bots, beside the floor under it, in one run.

    uv run python bench/series.py [--games 200] [--jobs N] [--floor-matches 40] [--rounds 1]

The series: `arena.series.play_series` (what `tavolo play` runs) with four
copies of the `tavolo new-bot` template, jailed, for 4-player Mia and
Muggins, with `--jobs` worker processes (default: the CPUs), and the same
series unjailed (`--no-jail`). The floor: per match, what no series of
jailed bots can avoid, measured with the same number of processes side by
side: four bots started and closed through the warm pool of jails, the
series' decisions per match as bare one-line pipe round trips between two
processes on one CPU, and the match played by the bare engine (legal
actions, a random choice, apply), timed once each floor process has played
one match untimed, while the series is timed as users see it, its first
jail starts included. Ratio: the floor's matches a second over the
series'. Targets: at least 20 Mia and 8 Muggins matches a second on 2
cores, at most 1.5x the floor, and the unjailed series not slower than the
jailed one.

With `--rounds N` the three are measured in N alternating rounds, each with
its share of the matches (a round's series is seeded with its number), so
that the machine's drifting load falls on all three alike; rates and CPU are
over all rounds, and the ratio column also gives the lowest and highest
round's. Each round's series starts its jails cold, as a new `tavolo play`
does, so more rounds weigh those starts more.

CPU a match: each series is played in a child process inside a cgroup of its
own (cgroup v1 `cpuacct`, else a v2 group, either writable: run as root), so
that the CPU of every process it starts, jails and worker processes
included, is counted; it varies far less with the machine's load than the
rates do. The column reads jailed / unjailed, or n/a where no such group can
be made.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# bench/sandbox.py shares its name with the package this measures: keep its folder off the path.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.cli.new_bot import starter_source  # noqa: E402
from arena.engine import Game  # noqa: E402
from arena.games import make_game  # noqa: E402
from arena.series import play_series  # noqa: E402
from sandbox.cgroups.v2 import NoV2Error, mount_point, own_group  # noqa: E402
from sandbox.process_bot import open_file_bot  # noqa: E402

_engine_file = importlib.util.spec_from_file_location("bench_engine", HERE / "engine.py")
assert _engine_file is not None and _engine_file.loader is not None
engine_bench = importlib.util.module_from_spec(_engine_file)  # for its pipe ping-pong
_engine_file.loader.exec_module(engine_bench)
SEATS = 4
TARGETS = {"mia": 20.0, "muggins": 8.0}
"""Matches a second of the jailed series on 2 cores."""
FLOOR_TARGET = 1.5
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
EMPTY_SECONDS = 5.0
"""How long to wait for a measured group's last process (the runner's warden) to leave."""


def cpu_counter() -> tuple[Path, Callable[[Path], float]] | None:
    """A writable group to make a counting group in, and how to read a group's CPU
    seconds: v1 `cpuacct`, else v2 `cpu.stat`; None where neither is writable."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, names, path = line.split(":", 2)
            if "cpuacct" in names.split(","):
                parent = CPUACCT / path.lstrip("/")
                if os.access(parent / "cgroup.procs", os.W_OK):
                    return parent, lambda group: int((group / "cpuacct.usage").read_text()) / 1e9
    with contextlib.suppress(OSError, NoV2Error):
        parent = own_group(mount_point())
        if os.access(parent, os.W_OK):
            return parent, _v2_seconds
    return None


def _v2_seconds(group: Path) -> float:
    stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    return int(stat["usage_usec"]) / 1e6


def cpu_of(task: Callable[[], Any]) -> tuple[Any, float | None]:
    """`task()`, run in a forked child inside a new cgroup, and the CPU seconds of the child
    and every process it started (None where no group can count them)."""
    counter = cpu_counter()
    context = multiprocessing.get_context("fork")
    results = context.SimpleQueue()
    group = counter[0] / f"bench-series-{os.getpid()}" if counter else None
    if group:
        group.mkdir()
    child = context.Process(target=_run_counted, args=(task, group, results))
    child.start()
    result = results.get()
    child.join()
    if counter is None or group is None:
        return result, None
    seconds = counter[1](group)
    _remove(group)
    return result, seconds


def _run_counted(task: Callable[[], Any], group: Path | None, results: Any) -> None:
    if group:
        (group / "cgroup.procs").write_text(str(os.getpid()))
    results.put(task())


def _remove(group: Path) -> None:
    """Delete the counting group and what the sandbox made in it, once their processes left."""
    deadline = time.monotonic() + EMPTY_SECONDS
    inner = [path for path in group.rglob("*") if path.is_dir()]
    for path in [*sorted(inner, key=lambda each: -len(each.parts)), group]:
        while True:
            try:
                path.rmdir()
                break
            except OSError:
                if time.monotonic() > deadline:
                    print(f"left {path} in place: still busy", file=sys.stderr)
                    break
                time.sleep(0.05)


def series_rate(
    game: str, bot: Path, games: int, jobs: int, *, jail: bool, seed: int = 1
) -> tuple[float, int]:
    """Matches a second of a seeded series, and its decisions per match."""
    rules = make_game(game, SEATS)
    started = time.perf_counter()
    result = play_series(rules, [str(bot)] * SEATS, games=games, seed=seed, jail=jail, jobs=jobs)
    seconds = time.perf_counter() - started
    return games / seconds, round(result.decisions / games)


def floor_rate(game: str, bot: Path, matches: int, jobs: int, decisions: int) -> float:
    """Matches a second of `jobs` processes each playing floor matches (see the module),
    timed once each has played one untimed, so that no cold jail start is counted."""
    context = multiprocessing.get_context("fork")
    per_worker = max(1, matches // jobs)
    done = context.Queue()
    warm = context.Barrier(jobs + 1)
    workers = [
        context.Process(target=_floor_worker, args=(game, bot, per_worker, decisions, warm, done))
        for _ in range(jobs)
    ]
    for worker in workers:
        worker.start()
    warm.wait()
    started = time.perf_counter()
    for worker in workers:
        worker.join()
    seconds = time.perf_counter() - started
    assert [done.get() for _ in workers] == [per_worker] * jobs, "a floor worker failed"
    return per_worker * jobs / seconds


def _floor_worker(
    game: str,
    bot: Path,
    matches: int,
    decisions: int,
    warm: threading.Barrier,
    done: multiprocessing.Queue,
) -> None:
    rules = make_game(game, SEATS)
    rng = random.Random(1)
    _floor_match(rules, bot, rng, 0, decisions)
    warm.wait()
    for number in range(1, matches + 1):
        _floor_match(rules, bot, rng, number, decisions)
    done.put(matches)


def _floor_match(rules: Game, bot: Path, rng: random.Random, number: int, decisions: int) -> None:
    bots = [open_file_bot(bot) for _ in range(SEATS)]
    for each in bots:
        assert each.start() is None
    for each in bots:
        each.close()
    engine_bench.pipe_ping_pong(decisions, one_cpu=True)
    state = rules.new_state(number)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))


def measure_game(
    game: str, bot: Path, games: int, jobs: int, floor_matches: int, rounds: int
) -> dict[str, Any]:
    """The jailed and unjailed series and the floor of `game`, in alternating rounds."""
    round_games, round_floor = max(1, games // rounds), max(jobs, floor_matches // rounds)
    seconds = {"jailed": 0.0, "unjailed": 0.0, "floor": 0.0}
    cpu: dict[str, list[float | None]] = {"jailed": [], "unjailed": []}
    decisions, ratios = [], []
    for number in range(1, rounds + 1):
        rates = {}
        for mode in ("jailed", "unjailed"):
            play = functools.partial(
                series_rate, game, bot, round_games, jobs, jail=mode == "jailed", seed=number
            )
            (rates[mode], per_match), used = cpu_of(play)
            seconds[mode] += round_games / rates[mode]
            cpu[mode].append(used)
            if mode == "jailed":
                decisions.append(per_match)
        floor = floor_rate(game, bot, round_floor, jobs, decisions[-1])
        seconds["floor"] += floor_done(round_floor, jobs) / floor
        ratios.append(floor / rates["jailed"])
    played = round_games * rounds
    return {
        "jailed": played / seconds["jailed"],
        "unjailed": played / seconds["unjailed"],
        "floor": floor_done(round_floor, jobs) * rounds / seconds["floor"],
        "cpu": [
            None if None in used else sum(each or 0.0 for each in used) / played
            for used in cpu.values()
        ],
        "decisions": round(sum(decisions) / rounds),
        "ratios": ratios,
    }


def floor_done(matches: int, jobs: int) -> int:
    """How many floor matches `floor_rate` plays for `matches` asked of `jobs` processes."""
    return max(1, matches // jobs) * jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="matches per series")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--floor-matches", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=1, help="alternating rounds")
    options = parser.parse_args()
    table = Table(
        title=f"series of {options.games} matches in {options.rounds} rounds, {SEATS} template "
        f"bots, {options.jobs} processes (load before: {os.getloadavg()[0]:.2f})",
        title_justify="left",
    )
    columns = ("game", "jailed", "unjailed", "CPU a match", "floor", "decisions")
    for column in (*columns, "floor / jailed (rounds)", "target"):
        table.add_column(column, justify="left" if column == "game" else "right")
    with tempfile.TemporaryDirectory() as folder:
        for game in ("mia", "muggins"):
            bot = Path(folder) / f"{game}_bot.py"
            bot.write_text(starter_source(game))
            found = measure_game(
                game, bot, options.games, options.jobs, options.floor_matches, options.rounds
            )
            ratios = found["ratios"]
            table.add_row(
                game,
                f"{found['jailed']:.1f}/s",
                f"{found['unjailed']:.1f}/s",
                " / ".join(
                    "n/a" if seconds is None else f"{1000 * seconds:.0f} ms"
                    for seconds in found["cpu"]
                ),
                f"{found['floor']:.1f}/s",
                str(found["decisions"]),
                f"{found['floor'] / found['jailed']:.2f}x ({min(ratios):.2f}-{max(ratios):.2f})",
                f">= {TARGETS[game]:g}/s, <= {FLOOR_TARGET}x, unjailed >= jailed",
            )
    table.caption = f"load after: {os.getloadavg()[0]:.2f}"
    Console().print(table)


if __name__ == "__main__":
    main()
