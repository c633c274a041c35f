"""The Mia rules object: variants, options, player counts (RULES.md 1.1, 1.2, 1.8)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from arena.engine import RulesError
from arena.games import game_from_rules, make_game
from arena.games.mia.game import MiaGame
from arena.games.mia.state import MiaState


def test_defaults_are_classic_six_lives_11_high_and_a_20000_action_cap() -> None:
    assert MiaGame(4, None, {}).rules == {
        "game": "mia",
        "players": 4,
        "variant": "classic",
        "lives": [6, 6, 6, 6],
        "doubles_order": "11-high",
        "turn_cap": 20000,
    }


def test_lives_may_be_given_per_seat() -> None:
    game = MiaGame(3, "croatian", {"lives": [1, 2, 3]})
    assert game.rules["lives"] == [1, 2, 3]
    assert game.new_state(0).observation(0)["players"] == [
        {"seat": 0, "lives": 1, "in_game": True},
        {"seat": 1, "lives": 2, "in_game": True},
        {"seat": 2, "lives": 3, "in_game": True},
    ]


def test_make_game_builds_mia_and_its_rules_rebuild_the_same_game() -> None:
    options = {"lives": 3, "doubles_order": "66-high", "turn_cap": 50}
    game = make_game("mia", 5, "no-guarantee", options)
    assert isinstance(game, MiaGame)
    assert game_from_rules(game.rules) == game
    assert isinstance(game.new_state(7), MiaState)


def test_the_game_is_frozen() -> None:
    game = MiaGame(2, None, {})
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.players = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("players", "variant", "options", "message"),
    [
        (1, None, {}, "2 to 10 players"),
        (11, None, {}, "2 to 10 players"),
        ("4", None, {}, "2 to 10 players"),
        (True, None, {}, "2 to 10 players"),
        (4, "liar", {}, "classic, no-guarantee, croatian"),
        (4, None, {"colour": "red"}, "lives, doubles_order, turn_cap"),
        (4, None, {"lives": 0}, "at least 1"),
        (4, None, {"lives": "6"}, "at least 1"),
        (4, None, {"lives": True}, "at least 1"),
        (4, None, {"lives": [6, 6, 6]}, "a list of 4"),
        (4, None, {"lives": [6, 6, 6, 0]}, "a list of 4"),
        (4, None, {"doubles_order": "12-high"}, "11-high, 66-high"),
        (4, None, {"turn_cap": 0}, "at least 1"),
        (4, None, {"turn_cap": 2.5}, "at least 1"),
    ],
)
def test_anything_the_rules_do_not_allow_raises_a_rules_error_naming_what_is_allowed(
    players: Any, variant: str | None, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        MiaGame(players, variant, options)
