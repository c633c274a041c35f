"""The `no-guarantee` (trust) and `croatian` variants (RULES.md 1.6, 1.7)."""

from __future__ import annotations

import pytest

from arena.engine import IllegalActionError
from arena.games.mia.values import ACCUSE, ANNOUNCE, CONCEDE, ROLL, TRUST, VOUCH
from tests.arena.mia.mia_helpers import (
    current_claim,
    events_of,
    losses,
    new_match,
    play,
    round_starter,
)


def test_without_guarantee_a_claim_is_answered_by_roll_accuse_or_a_higher_trust() -> None:
    state = new_match(3, "no-guarantee", rolls=((6, 4),))
    play(state, ROLL, ANNOUNCE[65])
    assert state.legal_actions() == [ROLL, ACCUSE, TRUST[66], TRUST[55], TRUST[44], TRUST[33],
                                     TRUST[22], TRUST[11], TRUST[21]]  # fmt: skip
    for action in (VOUCH, CONCEDE, TRUST[65], TRUST[64]):
        with pytest.raises(IllegalActionError):
            state.apply(action)


def test_trusts_may_follow_each_other_on_the_same_dice() -> None:
    state = new_match(3, "no-guarantee", rolls=((4, 2),))
    play(state, ROLL, ANNOUNCE[43], TRUST[51], TRUST[52])
    assert current_claim(state) == (52, 2)
    assert [event["value"] for event in events_of(state, "trust")] == [51, 52]
    assert state.current_seat() == 0
    state.apply(ACCUSE)
    assert events_of(state, "reveal") == [
        {"type": "reveal", "accuser": 0, "claimant": 2, "claim": 52, "dice": [4, 2], "value": 42}
    ]
    assert losses(state) == [(2, 1, "accusation")]
    assert round_starter(state) == 0


def test_a_trust_that_the_dice_support_costs_the_accuser() -> None:
    state = new_match(2, "no-guarantee", rolls=((6, 5),))
    play(state, ROLL, ANNOUNCE[61], TRUST[64], ACCUSE)
    assert losses(state) == [(0, 1, "accusation")]


def test_a_truster_may_announce_mia_and_then_the_next_may_only_concede_or_accuse() -> None:
    state = new_match(3, "no-guarantee", rolls=((3, 3),))
    play(state, ROLL, ANNOUNCE[33], TRUST[21])
    assert state.legal_actions() == [CONCEDE, ACCUSE]
    with pytest.raises(IllegalActionError):
        state.apply(ROLL)
    state.apply(ACCUSE)
    assert losses(state) == [(1, 1, "accusation")]


@pytest.mark.parametrize("variant", ["no-guarantee", "croatian"])
def test_accusing_a_real_mia_costs_the_accuser_two_lives(variant: str) -> None:
    state = new_match(3, variant, starter=2, rolls=((2, 1),))
    play(state, ROLL, ANNOUNCE[21], ACCUSE)
    assert losses(state) == [(0, 2, "accusation")]
    assert round_starter(state) == 1


@pytest.mark.parametrize("variant", ["no-guarantee", "croatian"])
def test_a_false_mia_costs_its_claimant_only_one_life(variant: str) -> None:
    state = new_match(3, variant, rolls=((5, 5),))
    play(state, ROLL, ANNOUNCE[21], ACCUSE)
    assert losses(state) == [(0, 1, "accusation")]


@pytest.mark.parametrize("variant", ["no-guarantee", "croatian"])
def test_conceding_to_a_mia_costs_one_life_without_reveal(variant: str) -> None:
    state = new_match(2, variant, rolls=((2, 1),))
    play(state, ROLL, ANNOUNCE[21], CONCEDE)
    assert losses(state) == [(1, 1, "concede")]
    assert events_of(state, "reveal") == []
    assert round_starter(state) == 0


def test_croatian_players_roll_or_accuse_and_neither_vouch_nor_trust() -> None:
    state = new_match(2, "croatian", rolls=((5, 4),))
    play(state, ROLL, ANNOUNCE[54])
    assert state.legal_actions() == [ROLL, ACCUSE]
    for action in (VOUCH, TRUST[61], CONCEDE):
        with pytest.raises(IllegalActionError):
            state.apply(action)
