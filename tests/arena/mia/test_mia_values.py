"""The 21 values, their orders and chances (RULES.md 1.1)."""

from __future__ import annotations

import math

import pytest

from arena.games.mia.values import COSTLY_ANNOUNCE, MIA, ORDERS, OUTCOMES, PROBABILITY


def test_eleven_high_order_runs_from_31_to_mia_with_11_the_highest_double() -> None:
    assert ORDERS["11-high"].values == (
        31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 66, 55, 44, 33, 22, 11, 21,
    )  # fmt: skip


def test_sixty_six_high_order_reverses_only_the_doubles() -> None:
    assert ORDERS["66-high"].values[14:] == (11, 22, 33, 44, 55, 66, MIA)
    assert ORDERS["66-high"].values[:14] == ORDERS["11-high"].values[:14]


def test_doubles_have_one_chance_in_36_and_other_values_two() -> None:
    assert PROBABILITY[33] == pytest.approx(1 / 36)
    assert PROBABILITY[MIA] == pytest.approx(2 / 36)
    assert PROBABILITY[42] == pytest.approx(2 / 36)
    assert math.fsum(PROBABILITY.values()) == pytest.approx(1)


def test_every_roll_reads_the_higher_die_first() -> None:
    assert len(OUTCOMES) == 36
    for dice, value in OUTCOMES:
        assert dice[0] >= dice[1]
        assert value == 10 * dice[0] + dice[1]
    assert sum(value == MIA for _, value in OUTCOMES) == 2


@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
def test_beat_and_hold_chances_follow_the_order(order) -> None:
    assert order.beat_chance[0] == pytest.approx(1)
    assert order.beat_chance[-1] == 0
    assert order.hold_chance[0] == pytest.approx(1)
    assert order.hold_chance[-1] == pytest.approx(2 / 36)
    for rank, value in enumerate(order.values):
        assert order.hold_chance[rank] == pytest.approx(
            order.beat_chance[rank + 1] + PROBABILITY[value]
        )


@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
def test_announces_above_a_claim_are_exactly_the_higher_values(order) -> None:
    assert [action["value"] for action in order.announces_above[0]] == list(order.values)
    assert [action["value"] for action in order.announces_above[order.rank[42] + 1]] == list(
        order.values[order.rank[42] + 1 :]
    )
    assert order.announces_above[order.rank[MIA] + 1] == []


@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
def test_announces_over_a_claim_are_the_higher_values_then_the_costly_ones(order) -> None:
    for rank in range(-1, len(order.values)):
        over = order.announces_over[rank + 1]
        assert over[: len(order.values) - rank - 1] == order.announces_above[rank + 1]
        costly = over[len(order.values) - rank - 1 :]
        assert costly == [COSTLY_ANNOUNCE[value] for value in order.values[: rank + 1]]
