"""The runner's side of the wire: observation lines, and the cache of final values."""

from __future__ import annotations

import json
import random

import pytest

from arena.games import make_game
from sandbox.wire import FinalValues, observation_line


def test_a_final_value_is_encoded_once_and_known_again_by_its_identity():
    cache = FinalValues(size=8)
    legal = [{"type": "roll"}, {"type": "accuse"}]
    first = cache.text(legal)
    assert cache.text(legal) is first
    equal_but_new = [dict(action) for action in legal]
    assert cache.text(equal_but_new) == first and cache.text(equal_but_new) is not first


def test_a_full_cache_starts_over_and_still_encodes_right():
    cache = FinalValues(size=2)
    lists = [[{"value": number}] for number in range(5)]
    assert [json.loads(cache.text(value)) for value in lists] == lists


def test_an_observation_line_carries_the_engine_legal_actions_and_the_history_from_start():
    state = make_game("mia", 3).new_state(4)
    state.apply(state.legal_actions()[0])
    observation = state.observation(state.current_seat())
    message = json.loads(observation_line(observation, history_start=1))
    assert message["legal_actions"] == state.legal_actions()
    assert message["history"] == state.history[1:] and message["history_start"] == 1


@pytest.mark.parametrize("game_name", ["mia", "muggins"])
def test_every_observation_line_of_a_match_says_what_a_plain_encoding_says(game_name):
    state = make_game(game_name, 4).new_state(7)
    rng = random.Random(7)
    sent = [0, 0, 0, 0]
    while (seat := state.current_seat()) is not None:
        observation = {**state.observation(seat), "time": {"bank_seconds": 9.5}}
        start = sent[seat]
        line = observation_line(observation, start)
        expected = {**observation, "history": state.history[start:], "history_start": start}
        assert line.endswith(b"\n") and line.isascii()
        assert json.loads(line) == json.loads(json.dumps(expected))
        sent[seat] = len(state.history)
        state.apply(rng.choice(state.legal_actions()))
