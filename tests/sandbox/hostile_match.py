"""Play hostile bots in real jailed matches, and read what they report.

Each hostile bot in `hostile/` attacks at import or in `act`, writes lines
``outcome: <label>: <what happened>`` to stderr (its log) and then plays a
legal action, so a test checks the exact containment, that the match
finished, and that the other seats were untouched.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from arena.bots.handle import BotHandle
from arena.bots.inprocess import InProcessBot
from arena.games import make_game
from arena.runner import MatchRecord, TimeControl, play_match
from sandbox.limits import KIB, MIB, JailLimits
from sandbox.process_bot import open_file_bot

HOSTILE = Path(__file__).with_name("hostile")
BOTS = Path(__file__).with_name("bots")
FAST_LIMITS = JailLimits(
    address_space_bytes=256 * MIB,
    cpu_seconds=30,
    processes=16,
    memory_bytes=192 * MIB,
    tmp_bytes=2 * MIB,
    shm_bytes=256 * KIB,
    startup_seconds=10.0,
)
"""Lower than the defaults so that exhausting a limit is quick."""
QUICK_CLOCK = TimeControl(decision_seconds=0.5, bank_seconds=0.5)


def hostile_bot(name: str | Path, limits: JailLimits = FAST_LIMITS) -> BotHandle:
    """The bot `hostile/<name>.py`, or the bot file at a path, jailed."""
    path = name if isinstance(name, Path) else HOSTILE / f"{name}.py"
    return open_file_bot(path, limits=limits)


def random_bot(seat: int) -> InProcessBot:
    rng = random.Random(seat)
    return InProcessBot(
        f"random {seat}", lambda observation: rng.choice(observation["legal_actions"])
    )


def play(
    *names: str | Path,
    limits: JailLimits = FAST_LIMITS,
    clock: TimeControl = QUICK_CLOCK,
    seed: int = 1,
    opponents: int = 1,
    lives: int | None = None,
) -> MatchRecord:
    """A Mia match: the hostile bots in the first seats, random built-in bots after them."""
    bots = [hostile_bot(name, limits) for name in names]
    bots += [random_bot(seat) for seat in range(len(bots), len(bots) + opponents)]
    options = {} if lives is None else {"lives": lives}
    game = make_game("mia", len(bots), options=options)
    return play_match(game, bots, seed=seed, time_control=clock)


def thinking_while_paused_and_running(bot: BotHandle) -> tuple[int, int]:
    """How far `think_between_turns` counts in a second paused, and a second running.

    Even paused, the count moves a little during each decision, while the
    host waits for the thread to hand over the GIL.
    """
    observation = {"history": [], "legal_actions": [{"type": "roll"}, {"type": "accuse"}]}
    assert bot.start() is None
    try:
        first = bot.decide(observation, 2.0)["count"]
        time.sleep(1.0)  # paused: decide pauses it again on the way out
        second = bot.decide(observation, 2.0)["count"]
        bot.resume()
        time.sleep(1.0)
        third = bot.decide(observation, 2.0)["count"]
    finally:
        bot.close()
    return second - first, third - second


def outcomes(log: str) -> dict[str, str]:
    """The bot's ``outcome:`` lines, by label."""
    found = {}
    for line in log.splitlines():
        if line.startswith("outcome: "):
            label, _, text = line.removeprefix("outcome: ").partition(": ")
            found[label] = text
    return found


def assert_others_unaffected(record: MatchRecord, hostile_seats: int = 1) -> None:
    """The match ended with places for all, and every built-in seat played cleanly."""
    assert sorted(record.result["places"])[0] == 1
    for seat in record.seats[hostile_seats:]:
        assert not seat.crashed, seat.crash_reason
        assert seat.infractions == 0, seat.infraction_reasons
        assert seat.decisions > 0


def assert_contained(record: MatchRecord, hostile_seats: int = 1) -> None:
    """The attack was refused and the hostile bots played on without penalty."""
    for seat in record.seats[:hostile_seats]:
        assert not seat.crashed, seat.crash_reason
        assert seat.infractions == 0, seat.infraction_reasons
    assert_others_unaffected(record, hostile_seats)


def wait_for(condition: Callable[[], object], seconds: float = 3.0) -> bool:
    """Poll `condition` until it holds (True) or `seconds` pass (False)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def running(pid: int | str) -> bool:
    """True unless the process is gone or a zombie waiting for its parent."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False
