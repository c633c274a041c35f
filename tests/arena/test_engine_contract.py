"""Both engines keep the contract the runner relies on, whatever a bot sends."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.bots.inprocess import InProcessBot
from arena.engine import IllegalActionError, Outcome, RulesError
from arena.games import GAMES, make_game
from arena.runner import play_match

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


def _variants() -> list[tuple[str, int, str]]:
    return [
        (name, players, variant)
        for name, game_class in GAMES.items()
        for variant in game_class.variants
        for players in (game_class.min_players, game_class.max_players)
    ]


@pytest.mark.parametrize("game_name, players, variant", _variants())
def test_legal_action_lists_events_and_rules_never_change_once_handed_out(
    game_name, players, variant
):
    """What the wire's cache relies on: a legal-action list, a history event or the
    rules dict known by its identity still holds what it held when handed out."""
    for seed in range(8):
        state = make_game(game_name, players, variant).new_state(seed)
        rng = random.Random(seed)
        handed_out: list[tuple[object, object]] = []
        shown = 0
        while (seat := state.current_seat()) is not None:
            legal = state.legal_actions()
            observation = state.observation(seat)
            assert observation["legal_actions"] is legal
            handed_out.append((legal, copy.deepcopy(legal)))
            if len(handed_out) == 1:
                handed_out.append((observation["rules"], copy.deepcopy(observation["rules"])))
            handed_out += [(event, copy.deepcopy(event)) for event in state.history[shown:]]
            shown = len(state.history)
            state.apply(rng.choice(legal))
        events = copy.deepcopy(state.events)
        state.result()
        assert all(value == snapshot for value, snapshot in handed_out)
        assert state.events == events


def test_every_game_is_registered_with_its_bounds_and_default_variant():
    for name, game_class in GAMES.items():
        assert game_class.name == name
        game = make_game(name, game_class.min_players)
        assert game.variant == game_class.variants[0] and game.rules["game"] == name
        for players in (game_class.min_players - 1, game_class.max_players + 1):
            with pytest.raises(RulesError, match=f"{game_class.min_players} to"):
                make_game(name, players)
    with pytest.raises(RulesError, match="unknown game 'chess'"):
        make_game("chess", 2)


@pytest.mark.parametrize("game_name, players", [("mia", 3), ("muggins", 2)])
def test_the_outcome_round_trips_through_the_result_dict(game_name, players):
    state = make_game(game_name, players).new_state(5)
    while state.current_seat() is not None:
        state.apply(state.legal_actions()[0])
    outcome = state.result()
    game = make_game(game_name, players)
    reason = game.end_reasons(outcome.reason.value)
    assert (
        Outcome.from_json(outcome.to_json(), scores_key=game.scores_key, reason=reason) == outcome
    )
    assert sorted(outcome.places)[0] == 1


@pytest.mark.parametrize("game_name, players", [("mia", 3), ("mia", 2), ("muggins", 2)])
@pytest.mark.parametrize("seed", range(4))
def test_a_match_ends_for_one_of_its_games_reasons(game_name, players, seed):
    game = make_game(game_name, players)
    state = game.new_state(seed)
    while state.current_seat() is not None:
        state.apply(state.legal_actions()[seed % len(state.legal_actions())])
    outcome = state.result()
    assert type(outcome.reason) is game.end_reasons
    assert outcome.scores_key == game.scores_key
    (end,) = [event for event in state.events if event["type"] == "end"]
    assert end.get("reason", outcome.reason) == outcome.reason
    assert type(end.get("reason", "")) is str, "events stay plain JSON"


def test_the_shared_outcome_reads_the_scores_under_the_key_it_is_given():
    """It guesses no game from the dict: the caller names the game's key."""
    result = {"places": [2, 1], "lives": [0, 3], "scores": [10, 20]}
    reason = make_game("muggins", 2).end_reasons("target")
    assert Outcome.from_json(result, scores_key="scores", reason=reason).scores == (10, 20)
    assert Outcome.from_json(result, scores_key="lives", reason=reason).scores == (0, 3)


class _KeptGame:
    """A game that keeps the states it makes, to look at them after a match."""

    def __init__(self, game):
        self._game = game
        self.name, self.players, self.rules = game.name, game.players, game.rules
        self.engine_version = game.engine_version
        self.states = []

    def new_state(self, seed):
        self.states.append(self._game.new_state(seed))
        return self.states[-1]


@pytest.mark.parametrize("game_name", ["mia", "muggins"])
def test_the_runner_gives_bots_the_time_without_writing_into_the_engine(game_name):
    game = _KeptGame(make_game(game_name, 2))
    seen = []

    def act(observation):
        seen.append("time" in observation)
        return observation["legal_actions"][-1]

    play_match(game, [InProcessBot("a", act), InProcessBot("b", act)], seed=3)
    state = game.states[0]
    assert seen and all(seen)
    assert all("time" not in state.observation(seat) for seat in range(2))
