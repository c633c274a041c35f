"""Scripted Mia matches for the tests: chosen starter, chosen dice, readable checks."""

from __future__ import annotations

from typing import Any

from arena.engine import JSON
from arena.games.mia.game import MiaGame
from arena.games.mia.state import MiaState
from tests.arena.mia.scripted import ScriptedDice


def new_match(
    players: int,
    variant: str | None = None,
    *,
    starter: int = 0,
    rolls: tuple[tuple[int, int], ...] = (),
    **options: Any,
) -> MiaState:
    """A match whose first starter and dice are scripted (see `ScriptedDice`)."""
    return MiaState(MiaGame(players, variant, options), rng=ScriptedDice(starter, rolls))


def events_of(state: MiaState, kind: str) -> list[JSON]:
    """The state's events of one type, oldest first."""
    return [event for event in state.events if event["type"] == kind]


def losses(state: MiaState) -> list[tuple[int, int, str]]:
    """Every ``(seat, lives_lost, reason)`` so far."""
    return [
        (event["seat"], event["lives_lost"], event["reason"])
        for event in events_of(state, "life_lost")
    ]


def lives(state: MiaState) -> list[int]:
    """Each seat's lives now, as the observation shows them."""
    return [player["lives"] for player in state.observation(0)["players"]]


def current_claim(state: MiaState) -> tuple[int | None, int | None]:
    """The standing claim and its claimant."""
    round_info = state.observation(0)["round"]
    return round_info["claim"], round_info["claimant"]


def round_starter(state: MiaState) -> int:
    """The starter of the round in progress."""
    return state.observation(0)["round"]["starter"]


def play(state: MiaState, *actions: JSON) -> MiaState:
    """Apply `actions` in turn, each by whoever's turn it is."""
    for action in actions:
        state.apply(action)
    return state


def fresh_round_without_reveal(state: MiaState) -> int | None:
    """The starter of the round in progress if no claim stands yet and no dice
    were ever revealed, else None."""
    if events_of(state, "reveal") or current_claim(state) != (None, None):
        return None
    return round_starter(state)
