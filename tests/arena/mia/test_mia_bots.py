"""The built-in Mia bots: always legal, reproducible, and `strong` beats `random`."""

from __future__ import annotations

import json

import pytest

from arena.bots.inprocess import InProcessBot
from arena.engine import JSON
from arena.games.mia.bots import BUILTIN_BOTS
from arena.games.mia.game import VARIANTS, MiaGame
from arena.games.mia.state import MiaState
from arena.games.mia.values import ACCUSE, ANNOUNCE, CONCEDE, MIA, ROLL, TRUST, VOUCH
from arena.replay import verify_replay
from arena.runner import play_match
from tests.arena.mia.mia_helpers import losses, new_match, play


def play_bots(game: MiaGame, bots: list[str], seed: int) -> JSON:
    """One match of built-in bots, asked only when they have a real choice."""
    acts = [BUILTIN_BOTS[name](seed * 31 + seat) for seat, name in enumerate(bots)]
    state = game.new_state(seed)
    while not state.is_over():
        seat = state.current_seat()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        action = acts[seat](state.observation(seat))
        assert action in legal
        state.apply(action)
    return state.result().to_json()


def strong_win_rate(variant: str, players: int, matches: int) -> float:
    """How often `strong` wins against `random` everywhere else, moving round the seats."""
    game = MiaGame(players, variant, {})
    wins = 0
    for match in range(matches):
        seat = match % players
        bots = ["random"] * players
        bots[seat] = "strong"
        wins += play_bots(game, bots, match)["places"][seat] == 1
    return wins / matches


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("doubles_order", ["11-high", "66-high"])
def test_the_built_in_bots_only_ever_choose_legal_actions(variant: str, doubles_order: str) -> None:
    game = MiaGame(3, variant, {"lives": 3, "doubles_order": doubles_order})
    for seed in range(5):
        result = play_bots(game, ["strong", "random", "strong"], seed)
        assert sorted(result["places"]) == [1, 2, 3]


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_a_bot_with_the_same_seed_plays_the_same_match(name: str) -> None:
    game = MiaGame(4, None, {})
    assert play_bots(game, [name] * 4, 11) == play_bots(game, [name] * 4, 11)


def test_a_match_of_built_in_bots_through_the_runner_makes_a_replay_that_verifies() -> None:
    game = MiaGame(4, "no-guarantee", {"lives": 2})
    names = ["strong", "random", "strong", "random"]
    bots = [InProcessBot(name, BUILTIN_BOTS[name](seat)) for seat, name in enumerate(names)]
    record = play_match(game, bots, seed=2024)
    assert all(seat.infractions == 0 for seat in record.seats)
    verify_replay(record.replay)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_strong_wins_at_least_40_percent_of_4_player_matches_against_3_random(
    variant: str,
) -> None:
    rate = strong_win_rate(variant, players=4, matches=300)
    print(f"strong beat 3 random in {rate:.0%} of 300 {variant} matches")
    assert rate >= 0.40


def strong_choice(state: MiaState) -> JSON:
    """What a fresh `strong` bot in the current seat plays now."""
    return BUILTIN_BOTS["strong"](0)(state.observation(state.current_seat()))


def test_strong_announces_the_truth_when_it_beats_the_claim() -> None:
    state = play(new_match(2, rolls=((2, 4),)), ROLL)
    assert strong_choice(state) == ANNOUNCE[42]


def test_strong_bluffs_a_value_just_above_the_claim_when_its_dice_do_not_beat_it() -> None:
    state = play(new_match(2, rolls=((6, 3), (3, 1))), ROLL, ANNOUNCE[63], ROLL)
    assert strong_choice(state) in (ANNOUNCE[64], ANNOUNCE[65], ANNOUNCE[66])


def test_random_never_announces_low_on_purpose() -> None:
    state = play(new_match(2, rolls=((1, 1), (3, 2))), ROLL, ANNOUNCE[11], ROLL)
    act = BUILTIN_BOTS["random"](0)
    assert {act(state.observation(1))["value"] for _ in range(20)} == {MIA}


def over_an_eleven(*, mias_conceded_before: int) -> MiaState:
    """Seat 0 has just rolled a 32 over seat 1's 11, after as many rounds in which
    seat 1 conceded to seat 0's 21 over its 11."""
    again = [(4, 2), (1, 1), (2, 1)] * (mias_conceded_before - 1)
    rolls = [(1, 1), (2, 1), *again, (4, 2), (1, 1), (3, 2)]
    state = new_match(2, starter=1, rolls=tuple(rolls))
    play(state, ROLL, ANNOUNCE[11], ROLL, ANNOUNCE[MIA], CONCEDE)
    for _ in range(mias_conceded_before - 1):
        play(state, ROLL, ANNOUNCE[42], ROLL, ANNOUNCE[11], ROLL, ANNOUNCE[MIA], CONCEDE)
    return play(state, ROLL, ANNOUNCE[42], ROLL, ANNOUNCE[11], ROLL)


def test_strong_announces_low_over_an_11_when_a_21_there_is_likely_accused() -> None:
    state = new_match(2, starter=1, rolls=((1, 1), (3, 2)))
    play(state, ROLL, ANNOUNCE[11], ROLL)
    choice = strong_choice(state)
    assert choice["cost"] == 1
    state.apply(choice)
    assert losses(state) == [(0, 1, "too_low")]


def test_strong_bluffs_a_21_over_an_11_when_the_next_player_concedes_such_21s() -> None:
    state = over_an_eleven(mias_conceded_before=2)
    assert [loss[2] for loss in losses(state)] == ["concede", "concede"]
    assert strong_choice(state) == ANNOUNCE[MIA]


def test_strong_accuses_an_opening_claim_that_is_rarely_true() -> None:
    state = play(new_match(2, rolls=((3, 1),)), ROLL, ANNOUNCE[11])
    assert strong_choice(state) == ACCUSE


def test_strong_vouches_for_its_own_true_claim_when_it_comes_back() -> None:
    state = new_match(3, rolls=((6, 5),))
    strong = BUILTIN_BOTS["strong"](0)
    play(state, ROLL)
    play(state, strong(state.observation(0)), VOUCH, VOUCH)
    assert strong(state.observation(0)) == VOUCH


def test_strong_accuses_a_trust_above_its_own_dice() -> None:
    state = new_match(3, "no-guarantee", rolls=((4, 2),))
    strong = BUILTIN_BOTS["strong"](0)
    play(state, ROLL)
    play(state, strong(state.observation(0)), TRUST[61], TRUST[63])
    assert strong(state.observation(0)) == ACCUSE


@pytest.mark.parametrize("doubles_order", ["11-high", "66-high"])
@pytest.mark.parametrize("decoded", [False, True], ids=["engine's lists", "decoded from JSON"])
def test_random_picks_every_free_announce_and_never_a_costly_one(
    doubles_order: str, decoded: bool
) -> None:
    game = MiaGame(2, None, {"doubles_order": doubles_order})
    act = BUILTIN_BOTS["random"](5)
    for claim in game.order.values[:-1]:
        state = MiaState(game, 1)
        for action in (ROLL, ANNOUNCE[claim], ROLL):  # the next seat rolls over `claim`
            state.apply(action)
        observation = state.observation(state.current_seat())
        if decoded:
            observation = json.loads(json.dumps(observation))
        legal = observation["legal_actions"]
        free = [action for action in legal if "cost" not in action]
        chosen = [act(observation) for _ in range(60 * len(free))]
        assert all("cost" not in action for action in chosen)
        assert {action["value"] for action in chosen} == {action["value"] for action in free}
