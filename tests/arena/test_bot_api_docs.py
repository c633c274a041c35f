"""The examples in docs/bot-api.md are real: the bots play, the observation validates."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from arena.bots.inprocess import InProcessBot
from arena.games import make_game
from arena.runner import play_match

DOC = Path(__file__).resolve().parents[2] / "docs" / "bot-api.md"
BLOCK = re.compile(r"```(\w+)(?: (\w+))?\n(.*?)```", re.DOTALL)
BLOCKS = BLOCK.findall(DOC.read_text())
EXAMPLE_BOTS = [(game, code) for language, game, code in BLOCKS if language == "python"]


def test_the_doc_has_example_bots_for_both_games():
    assert {game for game, _ in EXAMPLE_BOTS} == {"mia", "muggins"}


@pytest.mark.parametrize("game_name, code", EXAMPLE_BOTS)
def test_each_example_bot_plays_legal_moves_to_the_end(game_name, code):
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    rng = random.Random(0)
    example = InProcessBot("example", namespace["act"])
    opponent = InProcessBot("random", lambda observation: rng.choice(observation["legal_actions"]))
    for seed in range(5):
        record = play_match(make_game(game_name, 2), [example, opponent], seed=seed)
        assert record.seats[0].infractions == 0, record.seats[0].infraction_reasons


def test_the_example_observation_matches_the_schema(schema_validator):
    (example,) = [code for language, _, code in BLOCKS if language == "json"]
    schema_validator("observation.schema.json").validate(json.loads(example))
