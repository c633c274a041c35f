"""Engine speed against reference implementations, measured in the same run.

    uv run --group bench python bench/engine.py [--seconds 5]

Mia: decisions per second of 4-player matches between in-process
`builtin:random` bots through the match runner (and the bare engine loop),
beside OpenSpiel's `liars_dice` (C++, 2 players: its maximum) driven from
Python with random actions. Muggins: moves per second of 2- and 4-player
random matches beside the `dominoes` package's random block games. Bot files:
the median per-decision round trip to a bot in its own (unjailed) process,
paused between decisions as in a match, beside a bare pipe ping-pong between
two processes (the machine's floor), wherever the scheduler puts them and on
one CPU.
Each line prints the ratio to its baseline; targets are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# bench/sandbox.py would shadow the sandbox package that opens bot files.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.bots.inprocess import InProcessBot  # noqa: E402
from arena.bots.registry import builtin_bots, file_bot_opener  # noqa: E402
from arena.games import make_game  # noqa: E402
from arena.runner import play_match  # noqa: E402
from sandbox.affinity import current_cpu  # noqa: E402

Measure = Callable[[float], tuple[int, float]]
"""Run for about the given seconds; return (decisions, seconds spent)."""


def runner_matches(game_name: str, players: int) -> Measure:
    game = make_game(game_name, players)
    random_bot = builtin_bots(game_name)["random"]

    def measure(budget: float) -> tuple[int, float]:
        decisions, seed, started = 0, 0, time.perf_counter()
        while time.perf_counter() - started < budget:
            seed += 1
            bots = [
                InProcessBot(f"random {seat}", random_bot(seed * 10 + seat))
                for seat in range(players)
            ]
            decisions += play_match(game, bots, seed=seed).decisions
        return decisions, time.perf_counter() - started

    return measure


def bare_engine(game_name: str, players: int) -> Measure:
    game = make_game(game_name, players)

    def measure(budget: float) -> tuple[int, float]:
        rng = random.Random(1)
        decisions, seed, started = 0, 0, time.perf_counter()
        while time.perf_counter() - started < budget:
            seed += 1
            state = game.new_state(seed)
            while not state.is_over():
                state.apply(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions, time.perf_counter() - started

    return measure


def openspiel_liars_dice(budget: float) -> tuple[int, float]:
    import pyspiel

    game = pyspiel.load_game("liars_dice", {"players": 2})
    rng = random.Random(1)
    decisions, started = 0, time.perf_counter()
    while time.perf_counter() - started < budget:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [outcome for outcome, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions, time.perf_counter() - started


def dominoes_block_games(budget: float) -> tuple[int, float]:
    import dominoes

    rng = random.Random(1)
    moves, started = 0, time.perf_counter()
    while time.perf_counter() - started < budget:
        game = dominoes.Game.new()
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))
            moves += 1
    return moves, time.perf_counter() - started


ECHO_BOT = "def act(observation):\n    return observation['legal_actions'][0]\n"


def file_bot_round_trip(samples: int = 2000) -> list[float]:
    """Seconds per decision to an unjailed bot file, one sample per decision."""
    game = make_game("mia", 2)
    observation = game.new_state(1).observation(0)
    observation["legal_actions"] = [{"type": "accuse"}, {"type": "vouch"}]
    observation["time"] = {"decision_seconds": 1.0, "bank_seconds": 10.0}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "echo_bot.py"
        path.write_text(ECHO_BOT)
        bot = file_bot_opener()(path, name="echo", jail=False)
        assert bot.start() is None, "the echo bot did not start"
        timings = []
        for _ in range(samples):
            started = time.perf_counter()
            bot.decide(observation, 1.0)
            timings.append(time.perf_counter() - started)
        bot.close()
    return timings


def pipe_ping_pong(samples: int = 2000, *, one_cpu: bool = False) -> list[float]:
    """Seconds per one-line round trip between two bare processes over pipes.

    The floor under any bot round trip on this machine: what the kernel and
    the scheduler cost when no JSON, no bot and no jail are involved; with
    `one_cpu`, both processes kept on one CPU, as a match keeps its bots.
    """
    former = os.sched_getaffinity(0)
    if one_cpu:
        os.sched_setaffinity(0, {current_cpu() or min(former)})
    to_child, from_parent = os.pipe()
    from_child, to_parent = os.pipe()
    child = os.fork()
    if child == 0:  # echo every line back until the parent closes its end
        os.close(from_parent)
        while data := os.read(to_child, 64):
            os.write(to_parent, data)
        os._exit(0)
    timings = []
    for _ in range(samples):
        started = time.perf_counter()
        os.write(from_parent, b"ping\n")
        os.read(from_child, 64)
        timings.append(time.perf_counter() - started)
    os.close(from_parent)
    os.waitpid(child, 0)
    for descriptor in (to_child, from_child, to_parent):
        os.close(descriptor)
    os.sched_setaffinity(0, former)
    return timings


def paired_rates(
    ours: Measure, baseline: Measure, budget: float, slices: int = 5
) -> tuple[float, float]:
    """Rates of `ours` and `baseline`, measured in alternating slices of the budget.

    The machine's load drifts over a run; alternating puts each drift on both
    sides of the ratio alike, instead of on whichever was measured then.
    """
    totals = {ours: [0, 0.0], baseline: [0, 0.0]}
    for _ in range(slices):
        for measure, total in totals.items():
            count, seconds = measure(budget / slices)
            total[0] += count
            total[1] += seconds
    return tuple(count / seconds for count, seconds in totals.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    budget = parser.parse_args().seconds
    table = Table(title="engine speed (higher is better)", title_justify="left")
    for column in ("measurement", "per second", "baseline", "baseline per second", "ratio"):
        table.add_column(
            column, justify="left" if column in ("measurement", "baseline") else "right"
        )

    rows = [
        ("mia 4p, runner + builtin:random", runner_matches("mia", 4), "spiel"),
        ("mia 4p, bare engine loop", bare_engine("mia", 4), "spiel"),
    ]
    for players in (2, 4):
        rows += [
            (
                f"muggins {players}p, runner + builtin:random",
                runner_matches("muggins", players),
                "blocks",
            ),
            (f"muggins {players}p, bare engine loop", bare_engine("muggins", players), "blocks"),
        ]
    baselines = {
        "spiel": ("open_spiel liars_dice 2p", openspiel_liars_dice),
        "blocks": ("dominoes block game 4p", dominoes_block_games),
    }
    for label, measure, key in rows:
        name, baseline = baselines[key]
        ours, theirs = paired_rates(measure, baseline, budget)
        table.add_row(label, f"{ours:,.0f}", name, f"{theirs:,.0f}", f"{ours / theirs:.2f}x")
    Console().print(table)
    floor = statistics.median(pipe_ping_pong()) * 1e6
    one_cpu_floor = statistics.median(pipe_ping_pong(one_cpu=True)) * 1e6
    timings = file_bot_round_trip()
    median = statistics.median(timings) * 1e6
    p95 = statistics.quantiles(timings, n=20)[-1] * 1e6
    Console().print(
        f"bot file round trip (unjailed, paused between decisions): median {median:.0f} µs,"
        f" p95 {p95:.0f} µs (target: median < 100 µs); bare pipe ping-pong: median"
        f" {floor:.0f} µs where the scheduler puts the two processes, {one_cpu_floor:.0f} µs"
        f" on one CPU; ratio to the former {median / floor:.2f}x"
    )


if __name__ == "__main__":
    main()
