"""Rounds, claims, accusations and vouching in the classic variant (RULES.md 1.2 to 1.5)."""

from __future__ import annotations

import pytest

from arena.engine import IllegalActionError
from arena.games.mia.game import MiaGame
from arena.games.mia.values import ACCUSE, ANNOUNCE, CONCEDE, ROLL, VOUCH
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


def test_a_bluff_is_allowed_and_only_strictly_higher_announces_are_listed() -> None:
    state = new_match(2, rolls=((3, 1), (4, 1)))
    play(state, ROLL, ANNOUNCE[42], ROLL)
    assert [action["value"] for action in state.legal_actions()][:3] == [43, 51, 52]
    assert ANNOUNCE[42] not in state.legal_actions()


@pytest.mark.parametrize("announced", [42, 41])
def test_announcing_equal_or_lower_costs_one_life_at_once_without_reveal(announced: int) -> None:
    state = new_match(3, rolls=((4, 2), (6, 5)))
    play(state, ROLL, ANNOUNCE[42], ROLL, ANNOUNCE[announced])
    assert losses(state) == [(1, 1, "too_low")]
    assert fresh_round_without_reveal(state) == 2


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


def test_an_announce_of_mia_after_a_roll_is_listed_when_it_is_the_only_higher_value() -> None:
    state = new_match(2, rolls=((1, 1), (3, 2)))
    play(state, ROLL, ANNOUNCE[11], ROLL)
    assert state.legal_actions() == [ANNOUNCE[21]]


def test_the_66_high_order_ranks_66_above_11() -> None:
    state = new_match(2, doubles_order="66-high", rolls=((1, 1), (6, 6)))
    play(state, ROLL, ANNOUNCE[11], ROLL)
    assert [action["value"] for action in state.legal_actions()] == [22, 33, 44, 55, 66, 21]
    play(state, ANNOUNCE[66], ACCUSE)
    assert losses(state) == [(0, 1, "accusation")]


def test_in_the_11_high_order_announcing_66_over_11_is_too_low() -> None:
    state = new_match(2, rolls=((1, 1), (6, 6)))
    play(state, ROLL, ANNOUNCE[11], ROLL, ANNOUNCE[66])
    assert losses(state) == [(1, 1, "too_low")]
