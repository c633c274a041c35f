"""Rule invariants over random playouts, with random infractions and crashes.

Each playout is audited from its event log alone: the audit rebuilds every
hand, the boneyard and the line from the events and checks them against what
the events claim.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import JSON
from arena.games.muggins.game import MugginsGame
from arena.games.muggins.state import MugginsState, round_pips
from arena.games.muggins.tiles import PIPS, TILE_COUNT, tile_of

CRASH, INFRACTION = 2, 6
"""Out of 1000 decisions, those replaced by a crash, and by an infraction."""

games = st.builds(
    MugginsGame,
    players=st.integers(2, 4),
    options=st.fixed_dictionaries(
        {"target": st.integers(1, 150), "hand_cap": st.integers(1, 8)},
        optional={"hand_size": st.integers(1, 7)},
    ),
)


def playout(game: MugginsGame, seed: int, choices: int) -> MugginsState:
    """A match to the end with random plays, infractions and crashes from `choices`."""
    rng = random.Random(choices)
    state = game.new_state(seed)
    for _ in range(game.hand_cap * TILE_COUNT * game.players + 1):
        seat = state.current_seat()
        if seat is None:
            return state
        observation = state.observation(seat)
        sizes = sum(player["hand_size"] for player in observation["players"])
        assert sizes + observation["boneyard"] + len(observation["line"]) == TILE_COUNT
        assert observation["legal_actions"] == state.legal_actions() != []
        roll = rng.randrange(1000)
        if roll < CRASH:
            state.crash(seat, "exit")
        elif roll < CRASH + INFRACTION:
            state.infraction(seat, "late")
        else:
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the match did not end")


def audit(game: MugginsGame, events: list[JSON]) -> None:
    """Check every rule the event log can show, event by event."""
    scores = [0] * game.players
    crashed: set[int] = set()
    hands: list[set[int]] = []
    boneyard: list[int] = []
    line: list[int] = []
    last_player = None
    for event in events:
        kind = event["type"]
        if kind == "hand":
            hands = [{tile_of(tile) for tile in hand} for hand in event["hands"]]
            boneyard = [tile_of(tile) for tile in event["boneyard"]]
            line = []
        elif kind == "draw":
            assert tile_of(event["tile"]) == boneyard.pop(0)
            hands[event["seat"]].add(tile_of(event["tile"]))
        elif kind == "play":
            tile = tile_of(event["tile"])
            hands[event["seat"]].remove(tile)
            line.append(tile)
            count, credit = event["count"], event["credit"]
            assert credit in (0, 5, 10, 15, 20)
            assert credit == (0 if count % 5 else count)
            assert event["score"] == scores[event["seat"]] + credit
            scores[event["seat"]] = event["score"]
            last_player = event["seat"]
        elif kind == "pass":
            assert boneyard == []
        elif kind == "hand_end":
            assert [{tile_of(tile) for tile in hand} for hand in event["hands"]] == hands
            penalties = [round_pips(sum(PIPS[tile] for tile in hand)) for hand in hands]
            assert event["penalties"] == penalties
            scores = [score - penalty for score, penalty in zip(scores, penalties, strict=True)]
            assert event["scores"] == scores
            assert (event["reason"] == "domino") == (not hands[last_player])
        elif kind == "crash":
            crashed.add(event["seat"])
        elif kind == "end":
            assert event["scores"] == scores
            audit_end(game, event, crashed, last_player, events)
        dealt = sorted([*boneyard, *line, *(tile for hand in hands for tile in hand)])
        assert dealt == list(range(TILE_COUNT))
    assert events[-1]["type"] == "end"


def audit_end(
    game: MugginsGame, end: JSON, crashed: set[int], last_player: int | None, events: list[JSON]
) -> None:
    """Exactly one winner at the target, or the cap, or every seat crashed; places follow."""
    scores, places = end["scores"], end["places"]
    reached = [seat for seat, score in enumerate(scores) if score >= game.target]
    if end["reason"] == "target":
        assert reached == [last_player]
    else:
        assert reached == []
    if end["reason"] == "hand_cap":
        assert sum(event["type"] == "hand_end" for event in events) == game.hand_cap
    if end["reason"] == "crashed":
        assert crashed == set(range(game.players))
    for seat in range(game.players):
        for other in range(game.players):
            if seat in crashed and other not in crashed:
                assert places[seat] > places[other]
            elif (seat in crashed) == (other in crashed) and seat not in reached:
                if other in reached:
                    assert places[seat] > places[other]
                elif scores[seat] == scores[other]:
                    assert places[seat] == places[other]
                elif scores[seat] < scores[other]:
                    assert places[seat] > places[other]


@settings(max_examples=150, deadline=None)
@given(game=games, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_every_match_ends_and_its_log_keeps_every_rule(
    game: MugginsGame, seed: int, choices: int
) -> None:
    state = playout(game, seed, choices)
    audit(game, state.events)
    assert state.result().to_json() == {
        "places": state.events[-1]["places"],
        "scores": state.events[-1]["scores"],
    }


@settings(max_examples=60, deadline=None)
@given(game=games, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_feeding_the_input_events_to_the_same_seed_reproduces_the_match(
    game: MugginsGame, seed: int, choices: int
) -> None:
    events = playout(game, seed, choices).events
    replay = game.new_state(seed)
    for event in events:
        if event["type"] == "action":
            replay.apply(event["action"])
        elif event["type"] == "infraction":
            replay.infraction(event["seat"], event["reason"])
        elif event["type"] == "crash":
            replay.crash(event["seat"], event["reason"])
    assert replay.events == events


@settings(max_examples=30, deadline=None)
@given(game=games, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_same_seed_and_choices_give_the_same_match(
    game: MugginsGame, seed: int, choices: int
) -> None:
    assert playout(game, seed, choices).events == playout(game, seed, choices).events


@settings(max_examples=40, deadline=None)
@given(game=games, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_public_history_is_the_log_without_hidden_tiles(
    game: MugginsGame, seed: int, choices: int
) -> None:
    state = playout(game, seed, choices)
    public = iter(state.history)
    for event in state.events:
        if event["type"] == "action":
            continue
        shown = next(public)
        if event["type"] == "hand":
            assert shown == {"type": "hand", "number": event["number"], "opener": event["opener"]}
        elif event["type"] == "draw":
            assert shown == {"type": "draw", "seat": event["seat"]}
        else:
            assert shown == event
    assert next(public, None) is None
