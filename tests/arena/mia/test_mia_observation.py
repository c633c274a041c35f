"""What one seat may see (bot API v1): its own dice only, right after rolling."""

from __future__ import annotations

from arena.api import API_VERSION
from arena.games.mia.values import ACCUSE, ANNOUNCE, ROLL, VOUCH
from tests.arena.mia.mia_helpers import new_match, play


def test_an_observation_holds_exactly_the_bot_api_keys() -> None:
    state = new_match(3, starter=2)
    observation = state.observation(0)
    assert observation == {
        "api_version": API_VERSION,
        "game": "mia",
        "rules": state.game.rules,
        "seat": 0,
        "players": [{"seat": seat, "lives": 6, "in_game": True} for seat in range(3)],
        "round": {"starter": 2, "claim": None, "claimant": None, "vouches": 0},
        "legal_actions": [],
        "history": [{"type": "round", "starter": 2}],
        "dice": None,
    }


def test_only_the_current_seat_is_offered_legal_actions() -> None:
    state = new_match(3, rolls=((5, 2),))
    play(state, ROLL, ANNOUNCE[52])
    assert state.observation(1)["legal_actions"] == [ROLL, VOUCH, ACCUSE]
    assert state.observation(0)["legal_actions"] == []
    assert state.observation(2)["legal_actions"] == []


def test_the_history_is_the_shared_public_list_with_rolls_shown_without_dice() -> None:
    state = new_match(2, rolls=((5, 2),))
    state.apply(ROLL)
    history = state.observation(0)["history"]
    assert history is state.history
    assert history is state.observation(1)["history"]
    assert history[-1] == {"type": "roll", "seat": 0}
    assert state.events[-1] == {"type": "dice", "seat": 0, "dice": [5, 2], "value": 52}
    assert all("dice" not in event for event in history)


def test_the_dice_become_public_only_when_an_accusation_reveals_them() -> None:
    state = new_match(2, rolls=((5, 2),))
    play(state, ROLL, ANNOUNCE[61], ACCUSE)
    shown = [event for event in state.history if "dice" in event]
    assert shown == [
        {"type": "reveal", "accuser": 1, "claimant": 0, "claim": 61, "dice": [5, 2], "value": 52}
    ]


def test_the_roller_sees_his_dice_only_while_deciding_his_announce() -> None:
    state = new_match(2, rolls=((6, 3),))
    state.apply(ROLL)
    assert state.observation(0)["dice"] == [6, 3]
    assert state.observation(1)["dice"] is None
    play(state, ANNOUNCE[63], VOUCH)
    assert state.observation(0)["dice"] is None


def test_the_public_history_is_the_truth_but_for_hidden_dice_and_action_inputs() -> None:
    state = new_match(3, rolls=((6, 3), (2, 2)))
    for action in (ROLL, ANNOUNCE[63], VOUCH, ROLL, ANNOUNCE[22], ACCUSE):
        state.apply(action)
    hidden = [
        {"type": "roll", "seat": event["seat"]} if event["type"] == "dice" else event
        for event in state.events
        if event["type"] != "action"
    ]
    assert state.history == hidden
