"""The built-in Muggins bots: always legal, seeded, and `strong` beats `random`."""

from __future__ import annotations

import pytest

from arena.bots.inprocess import InProcessBot
from arena.games.muggins.bots import BUILTIN_BOTS
from arena.games.muggins.game import MugginsGame
from arena.replay import verify_replay
from arena.runner import play_match
from tests.arena.muggins.muggins_helpers import deal, play

STRONG_MATCHES = 200
STRONG_WIN_RATE = 0.65


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_a_built_in_bot_always_answers_one_of_the_legal_actions(name: str) -> None:
    game = MugginsGame(3, None, {"target": 80})
    state = game.new_state(4)
    acts = [BUILTIN_BOTS[name](seat) for seat in range(3)]
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None
        action = acts[seat](state.observation(seat))
        assert action in state.legal_actions()
        state.apply(action)


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_a_built_in_bot_with_the_same_seed_makes_the_same_choices(name: str) -> None:
    observation = deal("6-6 5-4 3-2 2-1 1-0 4-4", "0-0").observation(0)
    first, second = BUILTIN_BOTS[name](9), BUILTIN_BOTS[name](9)
    assert [first(observation) for _ in range(5)] == [second(observation) for _ in range(5)]


def test_the_strong_bot_takes_a_play_that_reaches_the_target() -> None:
    state = deal("6-6 3-2", "0-0", target=5)
    assert BUILTIN_BOTS["strong"](0)(state.observation(0))["tile"] == [3, 2]


def test_the_strong_bot_takes_the_end_that_scores() -> None:
    state = deal("5-3 5-2 1-1", "3-2 0-0")
    play(state, "5-3")
    play(state, "3-2", "right")
    assert BUILTIN_BOTS["strong"](0)(state.observation(0)) == {
        "type": "play",
        "tile": [5, 2],
        "end": "right",
    }


def test_a_match_of_built_in_bots_through_the_runner_replays_exactly() -> None:
    game = MugginsGame(2, None, {"target": 100})
    bots = [
        InProcessBot("strong", BUILTIN_BOTS["strong"](1)),
        InProcessBot("random", BUILTIN_BOTS["random"](2)),
    ]
    record = play_match(game, bots, seed=77)
    assert sorted(record.result["places"]) == [1, 2]
    verify_replay(record.replay)


@pytest.mark.slow
def test_the_strong_bot_wins_most_two_player_matches_against_random() -> None:
    game = MugginsGame(2)
    wins = 0
    for match in range(STRONG_MATCHES):
        strong_seat = match % 2
        acts = [BUILTIN_BOTS["random"](2 * match), BUILTIN_BOTS["random"](2 * match + 1)]
        acts[strong_seat] = BUILTIN_BOTS["strong"](2 * match + strong_seat)
        state = game.new_state(match)
        while not state.is_over():
            seat = state.current_seat()
            assert seat is not None
            legal = state.legal_actions()
            state.apply(legal[0] if len(legal) == 1 else acts[seat](state.observation(seat)))
        wins += state.result().places[strong_seat] == 1
    rate = wins / STRONG_MATCHES
    print(f"strong beat random in {rate:.1%} of {STRONG_MATCHES} two-player matches")
    assert rate >= STRONG_WIN_RATE
