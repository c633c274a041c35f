"""What one seat may see (bot API v1): its own hand, the line, sizes and the public history."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from arena.api import API_VERSION
from arena.games.muggins.game import MugginsGame
from arena.games.muggins.state import MugginsState
from arena.games.muggins.tiles import TILES
from tests.arena.muggins.muggins_helpers import deal, from_deal, play, tiles


def test_an_observation_holds_exactly_the_bot_api_keys() -> None:
    state = deal("6-4 3-3", "6-1 2-2")
    observation = state.observation(0)
    assert set(observation) == {
        "api_version",
        "game",
        "rules",
        "seat",
        "players",
        "scores",
        "target",
        "hand",
        "line",
        "ends",
        "boneyard",
        "hand_number",
        "drawn",
        "legal_actions",
        "history",
    }
    assert observation["api_version"] == API_VERSION
    assert (observation["game"], observation["seat"], observation["target"]) == ("muggins", 0, 250)
    assert observation["rules"] == state.game.rules
    assert observation["players"] == [
        {"seat": 0, "score": 0, "hand_size": 2},
        {"seat": 1, "score": 0, "hand_size": 2},
    ]
    assert (observation["boneyard"], observation["hand_number"]) == (24, 1)
    assert (observation["line"], observation["ends"], observation["drawn"]) == ([], None, [])


def test_a_seat_sees_its_own_hand_and_legal_actions_only_on_its_turn() -> None:
    state = deal("6-4 3-3", "6-1 2-2")
    assert state.observation(0)["hand"] == tiles("6-4 3-3")
    assert state.observation(0)["legal_actions"] == state.legal_actions()
    assert state.observation(1)["hand"] == tiles("6-1 2-2")
    assert state.observation(1)["legal_actions"] == []


def test_the_line_shows_each_tile_as_laid_and_the_ends_what_they_count() -> None:
    state = deal("5-5 5-2 1-1", "5-3 3-1 0-0")
    play(state, "5-5")
    assert state.observation(1)["ends"] == {
        "left": {"pips": 5, "counts": 10},
        "right": {"pips": 5, "counts": 10},
    }
    play(state, "5-3", "right")
    play(state, "5-2", "left")
    observation = state.observation(1)
    assert observation["line"] == tiles("2-5 5-5 5-3")
    assert observation["ends"] == {
        "left": {"pips": 2, "counts": 2},
        "right": {"pips": 3, "counts": 3},
    }
    assert observation["scores"] == [15, 0]
    assert observation["players"][0] == {"seat": 0, "score": 15, "hand_size": 1}


def test_the_history_is_the_public_log_shared_by_reference() -> None:
    state = deal("6-5 4-4", "1-1 0-0", boneyard="2-2 6-3")
    play(state, "6-5")
    observation = state.observation(1)
    assert observation["history"] is state.history
    assert [event["type"] for event in state.history] == ["hand", "play", "draw", "draw"]
    assert state.history[0] == {"type": "hand", "number": 1, "opener": 0}
    assert state.history[2:] == [{"type": "draw", "seat": 1}] * 2
    assert state.events[0]["hands"] == [tiles("6-5 4-4"), tiles("1-1 0-0")]


def test_every_observation_of_a_match_follows_the_published_schema(
    schema_validator: Callable[[str], Draft202012Validator],
) -> None:
    validator = schema_validator("observation.schema.json")
    state = MugginsGame(3, None, {"target": 60}).new_state(2)
    rng = random.Random(2)
    time = {"decision_seconds": 1.0, "bank_seconds": 10.0}
    while not state.is_over():
        for seat in range(3):
            validator.validate({**state.observation(seat), "time": time})
        state.apply(rng.choice(state.legal_actions()))
    validator.validate({**state.observation(0), "time": time})


def _shuffled_deal(game: MugginsGame, order: list[int], opener: int) -> MugginsState:
    size = game.hand_size
    hands = [
        [list(TILES[tile]) for tile in order[seat * size : (seat + 1) * size]]
        for seat in range(game.players)
    ]
    boneyard = [list(TILES[tile]) for tile in order[game.players * size :]]
    return from_deal(game, hands, boneyard, opener)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    order=st.permutations(range(len(TILES))),
    seat=st.integers(0, 3),
    opener=st.integers(0, 3),
    shuffle_seed=st.integers(0, 2**32),
)
def test_another_seats_tiles_and_the_boneyard_order_never_show(
    players: int, order: list[int], seat: int, opener: int, shuffle_seed: int
) -> None:
    game = MugginsGame(players)
    seat, opener = seat % players, opener % players
    size = game.hand_size
    own = order[seat * size : (seat + 1) * size]
    others = [tile for tile in order if tile not in own]
    random.Random(shuffle_seed).shuffle(others)
    changed = [*others[: seat * size], *own, *others[seat * size :]]
    assert changed[seat * size : (seat + 1) * size] == own
    first = _shuffled_deal(game, order, opener)
    second = _shuffled_deal(game, changed, opener)
    assert json.dumps(first.observation(seat)) == json.dumps(second.observation(seat))
