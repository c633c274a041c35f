"""Every golden replay is reproduced by the engine, event for event and result for result.

The files are written by `make_golden.py` and only by it; a change to an engine
that alters any of them is a change of the rules, and needs a new engine
version under which these old replays still verify.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.api import ENGINE_VERSION
from arena.replay import read_replay, verify_replay

GOLDEN = Path(__file__).parent
FILES = sorted(GOLDEN.glob("*/*/*.json.gz"))


def test_there_are_a_few_dozen_golden_replays_of_each_game_under_the_current_engine() -> None:
    for game in ("mia", "muggins"):
        current = GOLDEN / ENGINE_VERSION / game
        assert len([path for path in FILES if path.parent == current]) >= 40


def test_the_golden_replays_stay_small() -> None:
    assert sum(path.stat().st_size for path in FILES) < 3_000_000


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(GOLDEN)))
def test_the_engine_reproduces_the_golden_replay(path: Path) -> None:
    replay = read_replay(path)
    assert replay["engine_version"] == path.parent.parent.name
    verify_replay(replay)
