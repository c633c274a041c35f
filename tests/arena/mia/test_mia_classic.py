"""Rounds, claims, accusations and vouching in the classic variant (RULES.md 1.2 to 1.5)."""

from __future__ import annotations

import pytest

from arena.engine import IllegalActionError, RulesError
from arena.games.mia.game import MiaGame
from arena.games.mia.state import MiaState
from arena.games.mia.values import ACCUSE, ANNOUNCE, CONCEDE, COSTLY_ANNOUNCE, ROLL, VOUCH
from tests.arena.mia.mia_helpers import (
    current_claim,
    events_of,
    fresh_round_without_reveal,
    lives,
    losses,
    new_match,
    play,
    round_starter,
)
from tests.arena.mia.scripted import ScriptedDice


def test_the_first_starter_is_drawn_from_the_seed() -> None:
    game = MiaGame(5, None, {})
    starters = {seed: round_starter(game.new_state(seed)) for seed in range(60)}
    assert set(starters.values()) == set(range(5))
    assert all(round_starter(game.new_state(seed)) == s for seed, s in starters.items())


def test_the_starter_must_roll_before_anything_can_be_beaten_or_accused() -> None:
    state = new_match(3, starter=1)
    assert state.current_seat() == 1
    assert state.legal_actions() == [ROLL]
    for action in (ACCUSE, VOUCH, CONCEDE, ANNOUNCE[42]):
        with pytest.raises(IllegalActionError):
            state.apply(action)


def test_roll_then_announce_are_two_decisions_of_the_same_seat_who_alone_sees_the_dice() -> None:
    state = new_match(3, starter=1, rolls=((2, 4),))
    state.apply(ROLL)
    assert state.current_seat() == 1
    assert state.observation(1)["dice"] == [4, 2]
    assert state.observation(0)["dice"] is None
    assert len(state.legal_actions()) == 21
    state.apply(ANNOUNCE[31])
    assert state.current_seat() == 2
    assert state.observation(1)["dice"] is None
    assert current_claim(state) == (31, 1)


def test_a_bluff_is_allowed_and_the_higher_announces_come_first_then_the_costly_ones() -> None:
    state = new_match(2, rolls=((3, 1), (4, 1)))
    play(state, ROLL, ANNOUNCE[42], ROLL)
    legal = state.legal_actions()
    assert legal[:3] == [ANNOUNCE[43], ANNOUNCE[51], ANNOUNCE[52]]
    assert legal[-4:] == [
        COSTLY_ANNOUNCE[31],
        COSTLY_ANNOUNCE[32],
        COSTLY_ANNOUNCE[41],
        COSTLY_ANNOUNCE[42],
    ]
    assert len(legal) == 21
    assert ANNOUNCE[42] not in legal


@pytest.mark.parametrize("announced", [ANNOUNCE[42], ANNOUNCE[41], COSTLY_ANNOUNCE[41]])
def test_announcing_equal_or_lower_costs_one_life_at_once_without_reveal(announced) -> None:
    state = new_match(3, rolls=((4, 2), (6, 5)))
    play(state, ROLL, ANNOUNCE[42], ROLL, announced)
    assert losses(state) == [(1, 1, "too_low")]
    assert fresh_round_without_reveal(state) == 2
    assert events_of(state, "action")[-1]["action"] == COSTLY_ANNOUNCE[announced["value"]]


@pytest.mark.parametrize(
    "action",
    [
        COSTLY_ANNOUNCE[43],
        {"type": "announce", "value": 41, "cost": 2},
        {"type": "announce", "value": 41, "cost": True},
        {"type": "announce", "value": 41, "lives": 1},
    ],
)
def test_a_cost_is_accepted_only_as_listed(action) -> None:
    state = new_match(2, rolls=((4, 2), (6, 5)))
    play(state, ROLL, ANNOUNCE[42], ROLL)
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert losses(state) == []


def test_accusing_a_true_claim_costs_the_accuser_and_the_next_after_him_starts() -> None:
    state = new_match(3, rolls=((5, 3),))
    play(state, ROLL, ANNOUNCE[52], ACCUSE)
    assert events_of(state, "reveal") == [
        {"type": "reveal", "accuser": 1, "claimant": 0, "claim": 52, "dice": [5, 3], "value": 53}
    ]
    assert losses(state) == [(1, 1, "accusation")]
    assert round_starter(state) == 2


def test_a_real_value_equal_to_the_claim_is_a_true_claim() -> None:
    state = new_match(2, rolls=((6, 1),))
    play(state, ROLL, ANNOUNCE[61], ACCUSE)
    assert losses(state) == [(1, 1, "accusation")]


def test_accusing_a_false_claim_costs_the_claimant_and_the_next_after_him_starts() -> None:
    state = new_match(3, starter=2, rolls=((3, 2),))
    play(state, ROLL, ANNOUNCE[63], ACCUSE)
    assert losses(state) == [(2, 1, "accusation")]
    assert round_starter(state) == 0


def test_a_voucher_takes_over_the_claim_and_answers_for_the_same_dice() -> None:
    state = new_match(3, rolls=((3, 1),))
    play(state, ROLL, ANNOUNCE[54], VOUCH)
    assert current_claim(state) == (54, 1)
    assert events_of(state, "vouch") == [{"type": "vouch", "seat": 1, "value": 54}]
    state.apply(ACCUSE)
    assert events_of(state, "reveal")[0]["claimant"] == 1
    assert losses(state) == [(1, 1, "accusation")]
    assert round_starter(state) == 2


def test_with_two_players_after_b_and_a_vouch_b_must_roll_or_accuse() -> None:
    state = new_match(2, rolls=((4, 3),))
    play(state, ROLL, ANNOUNCE[43])
    assert state.legal_actions() == [ROLL, VOUCH, ACCUSE]
    play(state, VOUCH, VOUCH)
    assert state.current_seat() == 1
    assert state.legal_actions() == [ROLL, ACCUSE]
    with pytest.raises(IllegalActionError):
        state.apply(VOUCH)


def test_with_five_players_the_circle_closes_after_five_vouches() -> None:
    state = new_match(5, starter=3, rolls=((5, 1),))
    play(state, ROLL, ANNOUNCE[51])
    for voucher in (4, 0, 1, 2):
        assert state.current_seat() == voucher
        state.apply(VOUCH)
    assert state.current_seat() == 3
    assert VOUCH in state.legal_actions()
    state.apply(VOUCH)
    assert state.observation(4)["round"]["vouches"] == 5
    assert state.legal_actions() == [ROLL, ACCUSE]


def test_the_circle_counts_only_vouches_since_the_last_roll() -> None:
    state = new_match(2, rolls=((4, 1), (5, 2)))
    play(state, ROLL, ANNOUNCE[41], VOUCH, ROLL, ANNOUNCE[52], VOUCH)
    assert state.legal_actions() == [ROLL, VOUCH, ACCUSE]


def test_after_a_mia_full_circle_the_next_may_start_a_new_round_without_loss() -> None:
    state = new_match(2, rolls=((2, 1), (6, 6)))
    play(state, ROLL, ANNOUNCE[21], VOUCH, VOUCH)
    assert state.legal_actions() == [ROLL, ACCUSE]
    state.apply(ROLL)
    assert losses(state) == []
    assert fresh_round_without_reveal(state) == 1
    assert state.observation(1)["dice"] == [6, 6]
    assert len(state.legal_actions()) == 21


def test_after_a_mia_full_circle_the_next_may_accuse_the_last_voucher() -> None:
    state = new_match(2, rolls=((3, 1),))
    play(state, ROLL, ANNOUNCE[21], VOUCH, VOUCH, ACCUSE)
    assert losses(state) == [(0, 2, "accusation")]


def test_accusing_a_real_mia_costs_the_accuser_two_lives() -> None:
    state = new_match(3, rolls=((1, 2),))
    play(state, ROLL, ANNOUNCE[21], ACCUSE)
    assert losses(state) == [(1, 2, "accusation")]
    assert lives(state) == [6, 4, 6]
    assert round_starter(state) == 2


def test_a_false_mia_costs_its_claimant_two_lives_even_a_voucher() -> None:
    state = new_match(3, rolls=((6, 6),))
    play(state, ROLL, ANNOUNCE[21], VOUCH, ACCUSE)
    assert losses(state) == [(1, 2, "accusation")]


def test_rolling_against_a_mia_is_impossible_and_offered_as_a_concession_of_one_life() -> None:
    state = new_match(3, rolls=((4, 4),))
    play(state, ROLL, ANNOUNCE[21])
    assert state.legal_actions() == [CONCEDE, VOUCH, ACCUSE]
    with pytest.raises(IllegalActionError):
        state.apply(ROLL)
    state.apply(CONCEDE)
    assert losses(state) == [(1, 1, "concede")]
    assert events_of(state, "reveal") == []
    assert round_starter(state) == 2


@pytest.mark.parametrize("doubles_order, top", [("11-high", 11), ("66-high", 66)])
def test_over_the_highest_double_mia_comes_first_and_announcing_low_is_still_a_choice(
    doubles_order: str, top: int
) -> None:
    state = new_match(2, doubles_order=doubles_order, rolls=((top // 10, top % 10), (3, 2)))
    play(state, ROLL, ANNOUNCE[top], ROLL)
    legal = state.legal_actions()
    assert legal[0] == ANNOUNCE[21]
    assert legal[1:] == [COSTLY_ANNOUNCE[value] for value in state.game.order.values[:-1]]
    state.apply(legal[1])
    assert losses(state) == [(1, 1, "too_low")]
    assert events_of(state, "reveal") == []


def test_engine_1_0_0_lists_only_the_higher_announces_and_records_a_costly_one_plain() -> None:
    game = MiaGame(2, None, {}, engine_version="1.0.0")
    state = MiaState(game, rng=ScriptedDice(0, ((1, 1), (3, 2))))
    play(state, ROLL, ANNOUNCE[11], ROLL)
    assert state.legal_actions() == [ANNOUNCE[21]]
    with pytest.raises(IllegalActionError):
        state.apply(COSTLY_ANNOUNCE[32])
    state.apply(ANNOUNCE[32])
    assert events_of(state, "action")[-1]["action"] == ANNOUNCE[32]
    assert losses(state) == [(1, 1, "too_low")]


def test_an_unknown_engine_version_is_refused() -> None:
    with pytest.raises(RulesError, match=r"1\.0\.0, 1\.1\.0"):
        MiaGame(2, engine_version="0.9.0")


def test_the_66_high_order_ranks_66_above_11() -> None:
    state = new_match(2, doubles_order="66-high", rolls=((1, 1), (6, 6)))
    play(state, ROLL, ANNOUNCE[11], ROLL)
    higher = [action["value"] for action in state.legal_actions() if "cost" not in action]
    assert higher == [22, 33, 44, 55, 66, 21]
    play(state, ANNOUNCE[66], ACCUSE)
    assert losses(state) == [(0, 1, "accusation")]


def test_in_the_11_high_order_announcing_66_over_11_is_too_low() -> None:
    state = new_match(2, rolls=((1, 1), (6, 6)))
    play(state, ROLL, ANNOUNCE[11], ROLL, ANNOUNCE[66])
    assert losses(state) == [(1, 1, "too_low")]
