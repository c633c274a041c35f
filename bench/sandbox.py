"""What the jail costs: bot start-up and the per-decision round trip, jailed beside unjailed.

    uv run python bench/sandbox.py [--starts 40] [--decisions 3000]

Start-up: `open_file_bot(...).start()` until the bot is loaded and ready,
jailed with the warm pool (the default), jailed cold (no pool), and unjailed,
beside a plain `python3.11 -I -S -c pass`. With kept jails (the default) both
jailed starts are a match in the bot's kept jail, and the unjailed one a host
forked by the bot server; `TAVOLO_KEPT_JAILS=0` measures new jails and hosts.
Round trip: `decide` on a real 4-player Mia observation, and the runner's
whole `resume`/`decide`/`pause` cycle, jailed beside unjailed. Run it as root
to include the cgroups.
Targets (docs/sandbox.md): jailed start-up at most 2x the plain start, jailed
round trip at most 1.3x unjailed, the jailed cycle at most 1.5x the unjailed
one, unjailed round trip median under 100 us.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# This script shares its name with the package it measures: keep its folder off the path.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.bots.handle import BotHandle  # noqa: E402
from arena.games import make_game  # noqa: E402
from sandbox import pool  # noqa: E402
from sandbox.policy import PYTHON  # noqa: E402
from sandbox.process_bot import open_file_bot  # noqa: E402

SLICE = 250
BOT_SOURCE = "def act(observation):\n    return observation['legal_actions'][0]\n"


def timings(run: Callable[[], float], count: int) -> list[float]:
    """`count` results of `run`, each the seconds one trial took."""
    return [run() for _ in range(count)]


def plain_start() -> float:
    started = time.perf_counter()
    subprocess.run([PYTHON, "-I", "-S", "-c", "pass"], check=True, env={})
    return time.perf_counter() - started


def bot_start(path: Path, *, jail: bool) -> Callable[[], float]:
    def run() -> float:
        started = time.perf_counter()
        bot = open_file_bot(path, jail=jail)
        reason = bot.start()
        seconds = time.perf_counter() - started
        bot.close()
        assert reason is None, reason
        return seconds

    return run


def observation() -> dict:
    state = make_game("mia", 4).new_state(1)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seen = state.observation(state.current_seat())
    seen["time"] = {"decision_seconds": 1.0, "bank_seconds": 10.0}
    return seen


def round_trips(path: Path, count: int) -> dict[tuple[bool, bool], list[float]]:
    """Seconds per decision by (jailed, whole cycle): `decide` alone, or with the runner's
    `resume` and `pause` around it. The four are measured in turns, a slice at a time,
    so that a busy moment of the machine falls on all of them alike."""
    seen = observation()
    bots = {jail: open_file_bot(path, jail=jail) for jail in (False, True)}
    results: dict[tuple[bool, bool], list[float]] = {}
    try:
        for bot in bots.values():
            assert bot.start() is None
        for _ in range(0, count, SLICE):
            for jail, bot in bots.items():
                for cycle in (False, True):
                    results.setdefault((jail, cycle), []).extend(decisions(bot, seen, cycle))
    finally:
        for bot in bots.values():
            bot.close()
    return results


def decisions(bot: BotHandle, seen: dict, cycle: bool) -> list[float]:
    times = []
    bot.resume()
    for _ in range(SLICE):
        started = time.perf_counter()
        if cycle:
            bot.resume()
            answer = bot.decide(seen, 1.0)
            bot.pause()
        else:
            answer = bot.decide(seen, 1.0)
        times.append(time.perf_counter() - started)
        assert isinstance(answer, dict), answer
    bot.pause()
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=40)
    parser.add_argument("--decisions", type=int, default=3000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "first_legal.py"
        path.write_text(BOT_SOURCE)
        plain = timings(plain_start, options.starts)
        jailed = timings(bot_start(path, jail=True), options.starts)
        unjailed = timings(bot_start(path, jail=False), options.starts)
        shared = pool.shared_pool()
        shared.size = 0
        shared.clear()
        cold = timings(bot_start(path, jail=True), options.starts)
        shared.size = None
        trips = round_trips(path, options.decisions)
    pool.shared_pool().clear()

    table = Table(title=f"Sandbox costs (pid {os.getpid()}, uid {os.getuid()})")
    for column in ("measure", "median", "p95", "ratio", "target"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    plain_median = statistics.median(plain)

    def row(name: str, values: list[float], base: float | None, target: str, unit: float) -> None:
        suffix = " ms" if unit == 1e3 else " us"
        ratio = f"{statistics.median(values) / base:.2f}x" if base else ""
        table.add_row(
            name,
            f"{statistics.median(values) * unit:.2f}{suffix}",
            f"{percentile(values, 0.95) * unit:.2f}{suffix}",
            ratio,
            target,
        )

    row("start: plain python3.11 -I -S", plain, None, "", 1e3)
    row("start: jailed bot, warm pool", jailed, plain_median, "<= 2x plain", 1e3)
    row("start: jailed bot, cold", cold, plain_median, "", 1e3)
    row("start: unjailed bot", unjailed, plain_median, "", 1e3)
    unjailed_trip = statistics.median(trips[False, False])
    unjailed_cycle = statistics.median(trips[False, True])
    row("decide: unjailed", trips[False, False], None, "< 100 us", 1e6)
    row("decide: jailed", trips[True, False], unjailed_trip, "<= 1.3x unjailed", 1e6)
    row("resume+decide+pause: unjailed", trips[False, True], None, "", 1e6)
    row("resume+decide+pause: jailed", trips[True, True], unjailed_cycle, "<= 1.5x unjailed", 1e6)
    Console().print(table)


if __name__ == "__main__":
    main()
