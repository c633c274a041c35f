"""The published JSON Schemas hold for real observations, actions and replays."""

from __future__ import annotations

import functools
import json
import random

import pytest

from arena.bots.inprocess import InProcessBot
from arena.engine import JSON
from arena.games import make_game
from arena.runner import play_match

SAMPLED = 150
"""Observations checked per match, evenly spread: jsonschema is slow."""


@functools.cache
def recorded_match(game_name: str, players: int, variant: str | None = None):
    observations: list[JSON] = []
    rng = random.Random(players)

    def act(observation: JSON) -> JSON:
        recent = {**observation, "history": observation["history"][-8:]}
        observations.append(json.loads(json.dumps(recent)))
        return rng.choice(observation["legal_actions"])

    bots = [InProcessBot(f"b{seat}", act) for seat in range(players)]
    options = {"hand_cap": 12} if game_name == "muggins" else {}
    game = make_game(game_name, players, variant, options)
    record = play_match(game, bots, seed=players * 31)
    step = max(1, len(observations) // SAMPLED)
    return observations[::step], json.loads(json.dumps(record.replay))


CASES = [
    ("mia", 2, "classic"),
    ("mia", 5, "no-guarantee"),
    ("mia", 3, "croatian"),
    ("muggins", 2, None),
    ("muggins", 4, None),
]


@pytest.mark.parametrize("game_name, players, variant", CASES)
def test_every_observation_of_a_match_matches_the_schema(
    game_name, players, variant, schema_validator
):
    observations, _ = recorded_match(game_name, players, variant)
    check = schema_validator("observation.schema.json")
    assert observations
    for observation in observations:
        check.validate(observation)


@pytest.mark.parametrize("game_name, players, variant", CASES)
def test_every_legal_action_matches_the_action_schema(
    game_name, players, variant, schema_validator
):
    observations, _ = recorded_match(game_name, players, variant)
    check = schema_validator("action.schema.json")
    for observation in observations:
        for action in observation["legal_actions"]:
            check.validate(action)


@pytest.mark.parametrize("game_name, players, variant", CASES)
def test_a_replay_matches_the_replay_schema(game_name, players, variant, schema_validator):
    _, replay = recorded_match(game_name, players, variant)
    schema_validator("replay.schema.json").validate(replay)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "announce", "value": 27},
        {"type": "fly"},
        {"type": "play", "tile": [7, 1], "end": "up"},
    ],
)
def test_the_action_schema_refuses_what_no_game_accepts(action, schema_validator):
    assert not schema_validator("action.schema.json").is_valid(action)


def test_an_observation_with_another_seats_dice_shape_is_refused(schema_validator):
    observations, _ = recorded_match("mia", 2, "classic")
    broken = {**observations[0], "dice": [7, 0]}
    assert not schema_validator("observation.schema.json").is_valid(broken)
