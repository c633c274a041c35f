"""The frozen rules object: player counts, the variant and the options (RULES.md 2.1, 2.7)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from arena.engine import RulesError
from arena.games import make_game
from arena.games.muggins.game import MugginsGame
from arena.games.muggins.state import MugginsState
from arena.games.muggins.tiles import TILES
from tests.arena.muggins.muggins_helpers import from_deal


@pytest.mark.parametrize(
    ("players", "target", "hand_size"), [(2, 250, 7), (3, 200, 5), (4, 200, 5)]
)
def test_the_defaults_follow_the_number_of_players(
    players: int, target: int, hand_size: int
) -> None:
    game = make_game("muggins", players)
    assert isinstance(game, MugginsGame)
    assert game.rules == {
        "game": "muggins",
        "players": players,
        "variant": "standard",
        "target": target,
        "hand_size": hand_size,
        "hand_cap": 200,
    }


def test_options_override_the_defaults() -> None:
    game = MugginsGame(3, "standard", {"target": 61, "hand_size": 9, "hand_cap": 12})
    assert (game.target, game.hand_size, game.hand_cap) == (61, 9, 12)
    assert game.rules["target"] == 61


def test_the_rules_object_is_frozen_and_makes_states() -> None:
    game = MugginsGame(2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.target = 5  # type: ignore[misc]
    assert game.name == "muggins"
    assert isinstance(game.new_state(1), MugginsState)


@pytest.mark.parametrize(
    ("players", "variant", "options", "message"),
    [
        (1, None, {}, "2 to 4 players"),
        (5, None, {}, "2 to 4 players"),
        ("2", None, {}, "2 to 4 players"),
        (True, None, {}, "2 to 4 players"),
        (2, "draw", {}, "variant 'draw'"),
        (2, None, {"target": 0}, "'target'"),
        (2, None, {"target": "250"}, "'target'"),
        (2, None, {"target": 2.5}, "'target'"),
        (2, None, {"hand_cap": -1}, "'hand_cap'"),
        (2, None, {"hand_cap": False}, "'hand_cap'"),
        (2, None, {"hand_size": 0}, "'hand_size'"),
        (4, None, {"hand_size": 8}, "too large"),
        (2, None, {"lives": 3}, "unknown Muggins option 'lives'"),
        (2, None, ["target"], "options must be a mapping"),
    ],
)
def test_what_the_rules_do_not_allow_raises_one_clear_line(
    players: Any, variant: str | None, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message) as raised:
        MugginsGame(players, variant, options)
    assert "\n" not in str(raised.value)


def test_the_deal_may_use_every_tile() -> None:
    state = MugginsGame(4, None, {"hand_size": 7}).new_state(3)
    assert state.observation(0)["boneyard"] == 0
    assert [player["hand_size"] for player in state.observation(0)["players"]] == [7] * 4


@pytest.mark.parametrize(
    ("hands", "boneyard", "opener"),
    [
        ([[[6, 6]], [[5, 5]]], [], 0),
        ([[[6, 6]], []], [list(tile) for tile in TILES[1:]], 0),
        ([[[6, 6]], [[6, 6]]], [list(tile) for tile in TILES[1:]], 0),
        ([[[6, 6]], [[5, 5]]], [list(tile) for tile in TILES if tile not in ((6, 6), (5, 5))], 2),
    ],
)
def test_a_hand_built_deal_needs_every_tile_once_and_a_seat_to_open(
    hands: list[list[list[int]]], boneyard: list[list[int]], opener: int
) -> None:
    with pytest.raises(ValueError, match=r"deal|open"):
        from_deal(MugginsGame(2), hands, boneyard, opener)
