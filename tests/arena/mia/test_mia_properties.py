"""Rule invariants over random playouts, with random infractions and crashes."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import INPUT_EVENT_TYPES, JSON, IllegalActionError
from arena.games.mia.game import VARIANTS, MiaGame
from arena.games.mia.state import MiaState
from arena.games.mia.values import (
    ACCUSE,
    ANNOUNCE,
    CONCEDE,
    COSTLY_ANNOUNCE,
    DOUBLES_ORDERS,
    OUTCOMES,
    ROLL,
    TRUST,
    VOUCH,
)

INFRACTION, CRASH = 0, 1
"""Out of 100, the draws that replace a decision by an infraction or a crash, of
the seat to play or of any seat still in."""


@dataclass
class Playout:
    """A finished random match and everything each step showed."""

    game: MiaGame
    seed: int
    state: MiaState
    choices: list[tuple[str, int]]
    lives: list[list[int]]
    observations: list[list[JSON]]
    """After each step, every seat's `snapshot`."""


games = st.builds(
    MiaGame,
    players=st.integers(2, 6),
    variant=st.sampled_from(VARIANTS),
    options=st.fixed_dictionaries(
        {
            "lives": st.integers(1, 4),
            "doubles_order": st.sampled_from(DOUBLES_ORDERS),
            "turn_cap": st.integers(1, 400),
        }
    ),
)


def play(
    game: MiaGame,
    seed: int,
    draw: st.DataObject,
    *,
    rng: random.Random | None = None,
    watch: bool = False,
) -> Playout:
    """Play to the end with hypothesis-chosen actions, infractions and crashes.

    Every action counts toward the turn cap and every mishap costs a life, so a
    match that does not end within that many steps never would.
    """
    state = MiaState(game, seed, rng=rng)
    playout = Playout(game, seed, state, [], [], [])
    record(playout, watch)
    steps_left = game.turn_cap + sum(game.lives)
    while not state.is_over():
        assert steps_left > 0, "the match did not end"
        steps_left -= 1
        seat = state.current_seat()
        assert seat is not None
        mishap = draw.draw(st.integers(0, 99))
        if mishap in (INFRACTION, CRASH):
            players = state.observation(seat)["players"]
            still_in = [player["seat"] for player in players if player["in_game"]]
            culprit = draw.draw(st.sampled_from([seat, *still_in]))
            if mishap == INFRACTION:
                state.infraction(culprit, "late")
                playout.choices.append(("infraction", culprit))
            else:
                state.crash(culprit, "process died")
                playout.choices.append(("crash", culprit))
        else:
            index = draw.draw(st.integers(0, len(state.legal_actions()) - 1))
            state.apply(state.legal_actions()[index])
            playout.choices.append(("action", index))
        record(playout, watch)
    return playout


def snapshot(observation: JSON) -> JSON:
    """An observation frozen in time: the shared history by its length, the players
    and the round (updated in place by the state) copied."""
    return {
        **observation,
        "history": len(observation["history"]),
        "players": [dict(player) for player in observation["players"]],
        "round": dict(observation["round"]),
    }


def record(playout: Playout, watch: bool) -> None:
    """Note the lives, and with `watch` a `snapshot` of every seat's observation."""
    state = playout.state
    playout.lives.append([player["lives"] for player in state.observation(0)["players"]])
    if watch:
        playout.observations.append(
            [snapshot(state.observation(seat)) for seat in range(playout.game.players)]
        )


def replay(
    game: MiaGame, seed: int, choices: list[tuple[str, int]], rng: random.Random | None
) -> MiaState:
    """The same choices again, on a state whose chance is `rng`."""
    state = MiaState(game, seed, rng=rng)
    for kind, number in choices:
        if kind == "action":
            state.apply(state.legal_actions()[number])
        elif kind == "infraction":
            state.infraction(number, "late")
        else:
            state.crash(number, "process died")
    return state


@settings(max_examples=100, deadline=None)
@given(game=games, seed=st.integers(0, 2**64), draw=st.data())
def test_lives_never_rise_and_never_go_below_zero(game: MiaGame, seed: int, draw) -> None:
    playout = play(game, seed, draw)
    for before, after in zip(playout.lives, playout.lives[1:], strict=False):
        assert all(0 <= now <= then for then, now in zip(before, after, strict=True))


@settings(max_examples=100, deadline=None)
@given(game=games, seed=st.integers(0, 2**64), draw=st.data())
def test_every_match_ends_with_one_winner_or_at_the_cap_with_shared_places(
    game: MiaGame, seed: int, draw
) -> None:
    state = play(game, seed, draw).state
    result = state.result().to_json()
    places, lives = result["places"], result["lives"]
    still_in = [seat for seat in range(game.players) if lives[seat] > 0]
    eliminated = sorted(places[seat] for seat in range(game.players) if lives[seat] == 0)
    assert eliminated == list(range(len(still_in) + 1, game.players + 1))
    if state.events[-2]["type"] == "turn_cap":
        assert state.events[-2]["actions"] == game.turn_cap
        for seat in still_in:
            assert places[seat] == 1 + sum(lives[other] > lives[seat] for other in still_in)
    else:
        assert [places[seat] for seat in still_in] == [1]
    assert state.events[-1] == {"type": "end", **result}


@settings(max_examples=100, deadline=None)
@given(game=games, seed=st.integers(0, 2**64), draw=st.data())
def test_feeding_the_input_events_to_a_new_state_reproduces_every_event(
    game: MiaGame, seed: int, draw
) -> None:
    state = play(game, seed, draw).state
    again = game.new_state(seed)
    for event in state.events:
        if event["type"] == "action":
            again.apply(event["action"])
        elif event["type"] in INPUT_EVENT_TYPES:
            getattr(again, event["type"])(event["seat"], event["reason"])
    assert again.events == state.events
    assert json.loads(json.dumps(state.events)) == state.events


@settings(max_examples=100, deadline=None)
@given(game=games, seed=st.integers(0, 2**64), draw=st.data())
def test_the_same_seed_and_the_same_choices_give_the_same_events(
    game: MiaGame, seed: int, draw
) -> None:
    playout = play(game, seed, draw)
    again = replay(game, seed, playout.choices, None)
    assert again.events == playout.state.events


@settings(max_examples=100, deadline=None)
@given(game=games, seed=st.integers(0, 2**64), draw=st.data())
def test_no_observation_holds_dice_the_seat_did_not_roll_or_see_revealed(
    game: MiaGame, seed: int, draw
) -> None:
    playout = play(game, seed, draw, watch=True)
    state = playout.state
    for event in state.history:
        assert event["type"] == "reveal" or "dice" not in event
    assert all(event["type"] != "dice" for event in state.history)
    rolls = [event for event in state.events if event["type"] == "dice"]
    for shown in playout.observations:
        dice = [observation["dice"] for observation in shown]
        holders = [seat for seat, seen in enumerate(dice) if seen is not None]
        assert len(holders) <= 1
        for seat in holders:
            assert any(roll["seat"] == seat and roll["dice"] == dice[seat] for roll in rolls)


class SwappedRoll(random.Random):
    """`random.Random(seed)`, except that roll number `index` comes out as `outcome`."""

    def __init__(self, seed: int, index: int, outcome: int) -> None:
        super().__init__(seed)
        self.index = index
        self.outcome = outcome
        self.rolls = 0

    def getrandbits(self, bits: int, /) -> int:
        """Kept so that `randrange` still draws the starter as `random.Random` does."""
        return super().getrandbits(bits)

    def random(self) -> float:
        drawn = super().random()
        self.rolls += 1
        return (self.outcome + 0.5) / 36 if self.rolls - 1 == self.index else drawn


def hidden_rolls(events: list[JSON]) -> list[tuple[int, int, int]]:
    """``(roll number, seat, value)`` of every roll that no accusation revealed."""
    hidden = []
    number = -1
    for event in events:
        if event["type"] == "dice":
            number += 1
            hidden.append((number, event["seat"], event["value"]))
        elif event["type"] == "reveal":
            hidden.pop()
    return hidden


@settings(max_examples=100, deadline=None)
@given(game=games, seed=st.integers(0, 2**64), draw=st.data())
def test_changing_only_another_seats_hidden_dice_leaves_an_observation_unchanged(
    game: MiaGame, seed: int, draw
) -> None:
    playout = play(game, seed, draw, rng=random.Random(seed), watch=True)
    hidden = hidden_rolls(playout.state.events)
    if not hidden:
        return
    number, roller, value = draw.draw(st.sampled_from(hidden))
    outcome = draw.draw(
        st.sampled_from([index for index, (_, other) in enumerate(OUTCOMES) if other != value])
    )
    changed = MiaState(game, seed, rng=SwappedRoll(seed, number, outcome))
    steps = [("start", 0), *playout.choices]
    for (kind, choice), shown in zip(steps, playout.observations, strict=True):
        if kind == "action":
            changed.apply(changed.legal_actions()[choice])
        elif kind != "start":
            getattr(changed, kind)(choice, "late" if kind == "infraction" else "process died")
        for seat in range(game.players):
            observation = snapshot(changed.observation(seat))
            if seat == roller:
                assert {**observation, "dice": None} == {**shown[seat], "dice": None}
            else:
                assert observation == shown[seat]
    assert changed.history == playout.state.history
    assert changed.events != playout.state.events


EVERY_ACTION = [
    ROLL,
    VOUCH,
    ACCUSE,
    CONCEDE,
    *ANNOUNCE.values(),
    *COSTLY_ANNOUNCE.values(),
    *TRUST.values(),
]


@settings(max_examples=100, deadline=None)
@given(game=games, seed=st.integers(0, 2**64), draw=st.data())
def test_the_engine_takes_exactly_the_listed_actions_so_one_listed_action_is_no_choice(
    game: MiaGame, seed: int, draw
) -> None:
    """A costly announce is also taken without its ``cost`` (the plain spelling);
    nothing else that is not listed is taken, and a refusal changes nothing."""
    state = MiaState(game, seed)
    while not state.is_over():
        legal = state.legal_actions()
        assert "cost" not in legal[0]
        taken = legal + [ANNOUNCE[action["value"]] for action in legal if "cost" in action]
        action = draw.draw(st.sampled_from(EVERY_ACTION))
        if action in taken:
            state.apply(action)
            continue
        events = len(state.events)
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert len(state.events) == events
        state.apply(legal[draw.draw(st.integers(0, len(legal) - 1))])
