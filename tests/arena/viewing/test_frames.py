"""Frames: every event becomes one step with the whole table, and no view sees too much."""

from __future__ import annotations

import copy
import functools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.bots.handle import Answer, Fault
from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.engine import JSON
from arena.games import make_game
from arena.replay import ReplayError, ReplayMismatch, resimulate
from arena.runner import play_match
from arena.viewing import frames_document
from arena.viewing.muggins import tile_text

SET_UPS = [
    ("mia", 2, "classic", {}),
    ("mia", 4, "classic", {"doubles_order": "66-high"}),
    ("mia", 3, "no-guarantee", {}),
    ("mia", 3, "croatian", {"lives": [3, 2, 4]}),
    ("muggins", 2, None, {"target": 100}),
    ("muggins", 3, None, {"target": 100}),
    ("muggins", 4, None, {"target": 100}),
]


class Troublemaker:
    """A bot that plays at random but answers junk twice, then crashes."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.asked = 0

    def start(self) -> str | None:
        return None

    def decide(self, observation: JSON, timeout: float) -> Answer:
        self.asked += 1
        if self.asked == 5:
            return Fault("the bot process exited with code 1", crash=True)
        if self.asked in (2, 3):
            return {"type": "nonsense"}
        return self.rng.choice(observation["legal_actions"])

    def take_log(self) -> str:
        return ""

    def close(self) -> str:
        return ""


@functools.cache
def replay_of(game_name: str, players: int, variant: str | None, options_json: str, seed: int):
    game = make_game(game_name, players, variant, json.loads(options_json))
    strong = builtin_bots(game_name)["strong"]
    bots = [Troublemaker("trouble", seed)]
    bots += [InProcessBot(f"bot {seat}", strong(seed + seat)) for seat in range(1, players)]
    return play_match(game, bots, seed=seed).replay


def replay_for(set_up: tuple, seed: int = 1) -> JSON:
    game_name, players, variant, options = set_up
    return replay_of(game_name, players, variant, json.dumps(options), seed)


def views_of(replay: JSON) -> list:
    return ["full", "public", *range(len(replay["seats"]))]


@pytest.mark.parametrize("set_up", SET_UPS, ids=str)
def test_every_event_is_one_step_in_every_view(set_up):
    replay = replay_for(set_up)
    for view in views_of(replay):
        document = frames_document(replay, view=view)
        assert [step["index"] for step in document["steps"]] == list(range(len(replay["events"])))
        assert all(step["text"] and "\n" not in step["text"] for step in document["steps"])
        assert document["finished"] and document["result"] == replay["result"]
        assert document["view"] == view


@pytest.mark.parametrize("set_up", SET_UPS, ids=str)
def test_infractions_and_crashes_are_marked_with_their_reason(set_up):
    replay = replay_for(set_up)
    steps = frames_document(replay)["steps"]
    for kind in ("infraction", "crash"):
        marked = [step for step in steps if kind in step["marks"]]
        events = [event for event in replay["events"] if event["type"] == kind]
        assert len(marked) == len(events) > 0
        assert all(
            event["reason"] in step["text"] for step, event in zip(marked, events, strict=True)
        )


def assert_views_keep_secrets(document: JSON) -> None:
    view = document["view"]
    for step in document["steps"]:
        table = step["table"]
        if document["game"] == "mia":
            cup = table["cup"]
            if cup is not None and not cup["revealed"] and cup["seat"] != view:
                assert cup["dice"] is None and cup["value"] is None
        else:
            for player in table["players"]:
                if player["seat"] != view and table["hand_end"] is None:
                    assert player["hand"] is None, (step["index"], player)
    seats = range(len(document["seats"]))
    assert view in seats or view == "public"


@pytest.mark.parametrize("set_up", SET_UPS, ids=str)
def test_a_seat_sees_only_its_own_dice_and_tiles_and_the_public_neither(set_up):
    replay = replay_for(set_up)
    for view in views_of(replay)[1:]:
        assert_views_keep_secrets(frames_document(replay, view=view))


@settings(max_examples=15, deadline=None)
@given(set_up=st.sampled_from(SET_UPS), seed=st.integers(1, 10**6), view=st.integers(0, 3))
def test_views_keep_secrets_in_any_match(set_up, seed, view):
    replay = replay_for(set_up, seed)
    view = view % len(replay["seats"])
    assert_views_keep_secrets(frames_document(replay, view=view))
    assert_views_keep_secrets(frames_document(replay, view="public"))


def test_the_full_view_shows_the_dice_under_the_cup_and_every_hand():
    mia = frames_document(replay_for(SET_UPS[0]))
    assert any(
        step["table"]["cup"]
        and step["table"]["cup"]["dice"]
        and not step["table"]["cup"]["revealed"]
        for step in mia["steps"]
    )
    muggins = frames_document(replay_for(SET_UPS[4]))
    assert all(
        player["hand"] is not None
        for step in muggins["steps"]
        for player in step["table"]["players"]
    )


def test_a_seat_view_tells_its_own_roll_and_hides_the_others():
    replay = replay_for(SET_UPS[0])
    steps = frames_document(replay, view=0)["steps"]
    for step, event in zip(steps, replay["events"], strict=True):
        if event["type"] == "dice":
            high, low = event["dice"]
            told = f"rolls {high} and {low}" in step["text"]
            assert told == (event["seat"] == 0)


@pytest.mark.parametrize("set_up", SET_UPS, ids=str)
def test_rounds_and_hands_are_marked(set_up):
    replay = replay_for(set_up)
    steps = frames_document(replay)["steps"]
    mark = "round" if set_up[0] == "mia" else "hand"
    marked = [step["index"] for step in steps if mark in step["marks"]]
    assert marked == [i for i, event in enumerate(replay["events"]) if event["type"] == mark]
    assert "end" in steps[-1]["marks"]


@pytest.mark.parametrize("set_up", SET_UPS, ids=str)
def test_the_last_table_agrees_with_the_result(set_up):
    replay = replay_for(set_up)
    table = frames_document(replay)["steps"][-1]["table"]
    assert table["over"]
    assert [player["place"] for player in table["players"]] == replay["result"]["places"]
    kept, total = ("lives", "lives") if set_up[0] == "mia" else ("score", "scores")
    assert [player[kept] for player in table["players"]] == replay["result"][total]


@pytest.mark.parametrize("set_up", SET_UPS[4:], ids=str)
def test_the_line_is_drawn_as_the_engine_laid_it(set_up):
    replay = replay_for(set_up)
    steps = frames_document(replay)["steps"]
    for state, upto in resimulate(replay):
        if upto and not state.is_over():
            line = [piece["tile"] for piece in steps[upto - 1]["table"]["line"]]
            assert line == state.observation(0)["line"]
            assert steps[upto - 1]["table"]["turn"] == state.current_seat()


def test_doubles_are_marked_in_the_line():
    steps = frames_document(replay_for(SET_UPS[5]))["steps"]
    pieces = [piece for step in steps for piece in step["table"]["line"]]
    assert any(piece["double"] for piece in pieces)
    assert all(piece["double"] == (piece["tile"][0] == piece["tile"][1]) for piece in pieces)


@settings(max_examples=20, deadline=None)
@given(set_up=st.sampled_from(SET_UPS), cut=st.floats(0, 1))
def test_a_partial_replay_gives_the_first_steps_of_the_whole(set_up, cut):
    replay = replay_for(set_up)
    whole = frames_document(replay, view="public")
    partial = copy.deepcopy(replay)
    del partial["result"]
    partial["events"] = partial["events"][: int(cut * (len(replay["events"]) - 1))]
    document = frames_document(partial, view="public")
    assert not document["finished"] and "result" not in document
    assert document["steps"] == whole["steps"][: len(partial["events"])]
    assert document["next"] == len(partial["events"])


def test_steps_since_an_index_are_the_tail_of_the_whole():
    replay = replay_for(SET_UPS[1])
    whole = frames_document(replay, view="public")
    assert frames_document(replay, view="public", since=40)["steps"] == whole["steps"][40:]


def test_an_altered_replay_is_refused():
    replay = copy.deepcopy(replay_for(SET_UPS[0]))
    index = next(i for i, event in enumerate(replay["events"]) if event["type"] == "dice")
    replay["events"][index]["dice"] = [9, 9]
    with pytest.raises(ReplayMismatch):
        frames_document(replay)


@pytest.mark.parametrize("view", ["seat 1", 7, -1, True, None])
def test_a_view_that_is_not_of_the_match_is_refused(view):
    with pytest.raises(ValueError, match="view must be"):
        frames_document(replay_for(SET_UPS[0]), view=view)


def test_rules_are_told_in_words():
    assert frames_document(replay_for(SET_UPS[3]))["rules_text"] == (
        "Mia, Croatian (roll or accuse); 3 players, lives 3, 2, 4 by seat; "
        "11 the highest double; the match stops after 20,000 actions."
    )
    assert frames_document(replay_for(SET_UPS[5]))["rules_text"] == (
        "Muggins, 3 players, 5 tiles each, each scoring for himself; first to 100 points "
        "wins; the match stops after 200 hands."
    )


@pytest.mark.parametrize("set_up", [SET_UPS[1], SET_UPS[2], SET_UPS[6]], ids=str)
def test_a_view_never_tells_in_words_what_it_did_not_see(set_up):
    replay = replay_for(set_up)
    for view in views_of(replay)[1:]:
        steps = frames_document(replay, view=view)["steps"]
        for step, event in zip(steps, replay["events"], strict=True):
            if event["type"] in ("dice", "draw") and event["seat"] != view:
                told = step["text"].replace(replay["seats"][event["seat"]]["bot"], "")
                assert not any(character.isdigit() for character in told), step["text"]
            if event["type"] == "hand":
                told = [tile_text(tile) for hand in event["hands"] for tile in hand]
                own = [tile_text(tile) for tile in event["hands"][view]] if view != "public" else []
                assert {tile for tile in told if tile in step["text"]} <= set(own)


@pytest.mark.parametrize(
    "change",
    [
        {"game": "chess", "rules": {"game": "chess", "players": 2}},
        {"rules": {"game": "mia", "players": 99}},
        {"seats": [{"seat": 0}]},
        {"seats": [{"seat": 0, "bot": "alone"}]},
        {"events": None},
        {"seed": 12},
    ],
    ids=str,
)
def test_a_document_that_is_not_a_replay_is_refused_with_a_clear_error(change):
    replay = {**replay_for(SET_UPS[0]), **change}
    with pytest.raises(ReplayError):
        frames_document(replay)
