"""Per-seat chance (engine 1.2.0): rotating the seats deals each seat the same chance."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.engine import JSON
from arena.games import make_game
from arena.games.chance import MIA_OUTCOMES, hand_stream, mia_roll
from arena.runner import play_match


def _events(game_name: str, players: int, seed: int, kinds: list[str], engine: str) -> list[JSON]:
    game = make_game(game_name, players, engine_version=engine)
    factories = builtin_bots(game_name)
    bots = [
        InProcessBot(f"{kind}-{seat}", factories[kind](seed + 7 * seat))
        for seat, kind in enumerate(kinds)
    ]
    return play_match(game, bots, seed=seed).replay["events"]


def _mia_dice(events: list[JSON]) -> tuple[int, dict[tuple[int, int, int], list[int]]]:
    """The first starter, and each seat's dice by (seat, round, roll in the round)."""
    dice: dict[tuple[int, int, int], list[int]] = {}
    round_number, rolls, starter = 0, Counter[int](), -1
    for event in events:
        if event["type"] == "round":
            round_number += 1
            rolls.clear()
            starter = event["starter"] if starter < 0 else starter
        elif event["type"] == "dice":
            seat = event["seat"]
            dice[seat, round_number, rolls[seat]] = event["dice"]
            rolls[seat] += 1
    return starter, dice


def _muggins_deals(events: list[JSON]) -> dict[int, tuple[JSON, JSON]]:
    return {
        event["number"]: (event["hands"], event["boneyard"])
        for event in events
        if event["type"] == "hand"
    }


kinds = st.lists(st.sampled_from(["random", "strong"]), min_size=2, max_size=4)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), kinds=kinds, shift=st.integers(1, 3))
def test_rotating_the_seats_deals_each_mia_seat_the_same_dice(seed, kinds, shift):
    shift %= len(kinds)
    rotated = kinds[shift:] + kinds[:shift]
    first_starter, first = _mia_dice(_events("mia", len(kinds), seed, kinds, "1.2.0"))
    again_starter, again = _mia_dice(_events("mia", len(kinds), seed, rotated, "1.2.0"))
    assert first_starter == again_starter
    common = first.keys() & again.keys()
    assert common
    assert all(first[key] == again[key] for key in common)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**40), kinds=kinds, shift=st.integers(1, 3))
def test_rotating_the_seats_deals_each_muggins_hand_the_same_tiles(seed, kinds, shift):
    shift %= len(kinds)
    rotated = kinds[shift:] + kinds[:shift]
    first = _muggins_deals(_events("muggins", len(kinds), seed, kinds, "1.2.0"))
    again = _muggins_deals(_events("muggins", len(kinds), seed, rotated, "1.2.0"))
    assert first[1] == again[1]
    assert all(first[number] == again[number] for number in first.keys() & again.keys())


def test_under_engine_1_1_0_the_dice_follow_the_order_of_play():
    kinds = ["random", "strong", "random"]
    shared = [
        _mia_dice(_events("mia", 3, seed, kinds, "1.1.0"))[1]
        == _mia_dice(_events("mia", 3, seed, kinds[1:] + kinds[:1], "1.1.0"))[1]
        for seed in range(10)
    ]
    assert not all(shared)


def test_the_keyed_dice_are_uniform_and_differ_between_seats():
    counts = Counter(mia_roll(5, seat, 1, roll) for seat in range(4) for roll in range(9000))
    assert set(counts) == set(range(MIA_OUTCOMES))
    assert max(counts.values()) < 1.25 * 1000 and min(counts.values()) > 0.75 * 1000
    seats = [[mia_roll(5, seat, 1, roll) for roll in range(50)] for seat in range(4)]
    assert len({tuple(rolls) for rolls in seats}) == 4


def test_each_hand_has_its_own_stream():
    assert hand_stream(3, 1).random() == hand_stream(3, 1).random()
    assert len({hand_stream(3, number).random() for number in range(1, 50)}) == 49
    assert hand_stream(3, 1).random() != hand_stream(4, 1).random()
