"""The runner's side of the wire: observation lines, and the cache of legal-action lists."""

from __future__ import annotations

import json

from arena.games import make_game
from sandbox.wire import SharedLists, observation_line


def test_a_shared_list_is_encoded_once_and_known_again_by_its_identity():
    cache = SharedLists(size=8)
    legal = [{"type": "roll"}, {"type": "accuse"}]
    first = cache.text(legal)
    assert cache.text(legal) is first
    equal_but_new = [dict(action) for action in legal]
    assert cache.text(equal_but_new) == first and cache.text(equal_but_new) is not first


def test_a_full_cache_starts_over_and_still_encodes_right():
    cache = SharedLists(size=2)
    lists = [[{"value": number}] for number in range(5)]
    assert [json.loads(cache.text(value)) for value in lists] == lists


def test_an_observation_line_carries_the_engine_legal_actions_and_the_history_from_start():
    state = make_game("mia", 3).new_state(4)
    state.apply(state.legal_actions()[0])
    observation = state.observation(state.current_seat())
    message = json.loads(observation_line(observation, history_start=1))
    assert message["legal_actions"] == state.legal_actions()
    assert message["history"] == state.history[1:] and message["history_start"] == 1
