"""Both engines keep the contract the runner relies on, whatever a bot sends."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import IllegalActionError
from arena.games import make_game

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
near_actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["roll", "announce", "vouch", "trust", "accuse", "concede", "play"])},
    optional={"value": json_values, "tile": json_values, "end": json_values},
)


@pytest.mark.parametrize("game_name, players", [("mia", 3), ("muggins", 2)])
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), junk=json_values | near_actions)
def test_apply_refuses_junk_with_illegal_action_error_and_changes_nothing(
    game_name, players, seed, steps, junk
):
    state = make_game(game_name, players).new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.current_seat() is None:
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.current_seat() is None:
        return
    before = list(state.events)
    legal = list(state.legal_actions())
    try:
        state.apply(junk)
    except IllegalActionError:
        assert state.events == before
        assert state.legal_actions() == legal
    else:
        assert len(state.events) > len(before)
