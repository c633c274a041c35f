"""Write the golden replays: `uv run python -m tests.golden.make_golden`.

Each file under tests/golden/<engine version>/<game>/ is an ordinary replay (`tavolo replay
verify` reads it) of a match among the built-in bots at a fixed seed, with its
clock fields fixed so that writing them again changes nothing unless the
engine does. `test_golden.py` re-simulates every one and never writes them:
run this only when a change of the rules is meant, with a new engine version:
it writes the current version's folder, and the folders of older versions
stay as they are (the engine re-simulates them with their own rules).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.api import ENGINE_VERSION
from arena.bots.handle import Answer, Fault
from arena.bots.registry import builtin_bots
from arena.engine import JSON
from arena.games import make_game
from arena.replay import write_replay
from arena.runner import play_match

GOLDEN = Path(__file__).parent
FIXED_START = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Batch:
    """`count` matches of one game and rule set, for player counts in turn."""

    game: str
    label: str
    players: tuple[int, ...]
    count: int
    variant: str | None = None
    options: dict[str, Any] | None = None


BATCHES = (
    Batch("mia", "classic", (2, 3, 4, 5, 6), 20, "classic", {"lives": 3}),
    Batch("mia", "classic-default-lives", (2, 4, 6), 6, "classic"),
    Batch("mia", "classic-66-high", (2, 3, 4, 6), 8, "classic", {"doubles_order": "66-high"}),
    Batch("mia", "no-guarantee", (2, 3, 4, 5, 6), 20, "no-guarantee", {"lives": 3}),
    Batch("mia", "no-guarantee-66-high", (3, 5), 6, "no-guarantee", {"doubles_order": "66-high"}),
    Batch("mia", "croatian", (2, 3, 4, 5, 6), 20, "croatian", {"lives": 3}),
    Batch("mia", "croatian-66-high", (2, 4), 6, "croatian", {"doubles_order": "66-high"}),
    Batch("mia", "uneven-lives", (3,), 3, "classic", {"lives": [1, 2, 4]}),
    Batch("mia", "turn-cap", (4,), 3, "croatian", {"turn_cap": 40}),
    Batch("muggins", "standard", (2, 3, 4), 24, "standard", {"target": 100}),
    Batch("muggins", "defaults", (2, 3, 4), 9),
    Batch("muggins", "small-hands", (2, 3), 6, "standard", {"hand_size": 3, "target": 60}),
    Batch("muggins", "large-hands", (2, 3), 6, "standard", {"hand_size": 9, "target": 80}),
    Batch("muggins", "hand-cap", (2, 4), 4, "standard", {"hand_cap": 2}),
)


class ClumsyBot:
    """A random player that answers junk now and then, and in some matches
    dies at its `crash_at`-th decision: the infractions and crashes of goldens."""

    def __init__(self, name: str, seed: int, crash_at: int | None) -> None:
        self.name = name
        self._rng = random.Random(seed)
        self._crash_at = crash_at
        self._decisions = 0

    def start(self) -> str | None:
        return None

    def decide(self, observation: JSON, timeout: float) -> Answer:
        self._decisions += 1
        if self._decisions == self._crash_at:
            return Fault("the process died", crash=True)
        roll = self._rng.random()
        if roll < 0.05:
            return Fault("malformed reply: not a JSON object")
        if roll < 0.10:
            return {"type": "nonsense"}
        return self._rng.choice(observation["legal_actions"])

    def take_log(self) -> str:
        return ""

    def close(self) -> str:
        return ""


def _bots(game: str, players: int, seed: int) -> list[Any]:
    """The built-in random and strong bots in a seeded mix, one seat in four
    matches clumsy (and one such in three crashing)."""
    from arena.bots.inprocess import InProcessBot

    rng = random.Random(seed)
    factories = builtin_bots(game)
    bots: list[Any] = []
    for seat in range(players):
        kind = rng.choice(sorted(factories))
        bots.append(InProcessBot(f"builtin:{kind}", factories[kind](seed * 31 + seat)))
    if seed % 4 == 3:
        seat = rng.randrange(players)
        crash_at = rng.randrange(3, 30) if seed % 3 == 0 else None
        bots[seat] = ClumsyBot("clumsy", seed, crash_at)
    return bots


def golden_matches() -> Iterator[tuple[Path, JSON]]:
    """Every golden replay with the path it is kept at."""
    for batch in BATCHES:
        for number in range(batch.count):
            players = batch.players[number % len(batch.players)]
            seed = 1000 * (BATCHES.index(batch) + 1) + number
            game = make_game(batch.game, players, batch.variant, batch.options)
            record = play_match(game, _bots(batch.game, players, seed), seed=seed)
            replay = {
                **record.replay,
                "started_at": FIXED_START.isoformat(),
                "finished_at": FIXED_START.isoformat(),
                "seconds": 0.0,
            }
            name = f"{batch.label}-{players}p-{number:02d}.json.gz"
            yield GOLDEN / ENGINE_VERSION / batch.game / name, replay


def main() -> None:
    for path, replay in golden_matches():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_replay(path, replay)
    written = GOLDEN / ENGINE_VERSION
    print(f"wrote {sum(1 for _ in written.glob('*/*.json.gz'))} golden replays under {written}")


if __name__ == "__main__":
    main()
