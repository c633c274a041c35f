"""The match runner: turns, clocks, penalties, and the record it returns."""

from __future__ import annotations

import random
import re
import time

import pytest

from arena.bots.handle import Answer
from arena.bots.inprocess import InProcessBot
from arena.engine import JSON
from arena.games import make_game
from arena.replay import verify_replay
from arena.runner import TimeControl, play_match
from sandbox.process_bot import open_file_bot


def random_bot(name: str, seed: int) -> InProcessBot:
    rng = random.Random(seed)
    return InProcessBot(name, lambda observation: rng.choice(observation["legal_actions"]))


def bot_answering(name: str, answer) -> InProcessBot:
    return InProcessBot(name, answer)


class NeverStarts:
    """A handle whose bot cannot start, like a file that fails to import."""

    name = "broken"

    def start(self) -> str | None:
        return "SyntaxError: invalid syntax"

    def decide(self, observation: JSON, timeout: float) -> Answer:
        raise AssertionError("a bot that never started must never be asked")

    def take_log(self) -> str:
        return ""

    def close(self) -> str:
        return "Traceback: SyntaxError"


@pytest.mark.parametrize("game_name, players", [("mia", 2), ("mia", 4), ("mia", 7)])
def test_a_match_between_random_bots_finishes_with_one_winner(game_name, players):
    game = make_game(game_name, players)
    bots = [random_bot(f"bot {seat}", seat) for seat in range(players)]
    record = play_match(game, bots, seed=42)
    assert sorted(record.result["places"])[0] == 1
    assert record.result["places"].count(1) == 1
    assert record.decisions > 0
    verify_replay(record.replay)


def test_the_same_seed_and_bots_give_the_same_match():
    game = make_game("mia", 3)
    first = play_match(game, [random_bot("b", seat) for seat in range(3)], seed=7)
    second = play_match(game, [random_bot("b", seat) for seat in range(3)], seed=7)
    assert first.replay["events"] == second.replay["events"]


def test_a_bot_is_asked_only_with_a_choice_and_sees_its_time():
    seen: list[JSON] = []

    def act(observation: JSON) -> JSON:
        seen.append(observation)
        return observation["legal_actions"][-1]

    game = make_game("mia", 2)
    play_match(game, [bot_answering("a", act), random_bot("b", 1)], seed=3)
    assert seen
    assert all(len(observation["legal_actions"]) >= 2 for observation in seen)
    assert all(observation["time"]["decision_seconds"] == 1.0 for observation in seen)


def test_an_illegal_answer_is_an_infraction_and_the_match_goes_on():
    game = make_game("mia", 2)
    junk = bot_answering("junk", lambda observation: {"type": "fly"})
    record = play_match(game, [junk, random_bot("b", 1)], seed=5)
    assert record.seats[0].infractions > 0
    first = record.seats[0].infraction_reasons[0]
    assert first.reason.startswith("illegal action")
    assert (first.kind, first.decision) == ("illegal", 1)
    assert record.result["places"] == [2, 1]
    infractions = [event for event in record.replay["events"] if event["type"] == "infraction"]
    assert infractions and all(event["seat"] == 0 for event in infractions)


def test_a_bot_that_raises_gets_an_infraction_and_its_traceback_in_the_log():
    def act(observation: JSON) -> JSON:
        raise ZeroDivisionError("oops")

    game = make_game("mia", 2)
    record = play_match(game, [bot_answering("raiser", act), random_bot("b", 1)], seed=5)
    assert record.seats[0].infraction_reasons[0].reason == "act raised ZeroDivisionError: oops"
    assert "Traceback" in record.seats[0].log


def test_a_reply_past_the_decision_time_and_the_bank_is_late():
    def slow(observation: JSON) -> JSON:
        time.sleep(0.02)
        return observation["legal_actions"][0]

    game = make_game("mia", 2)
    clock = TimeControl(decision_seconds=0.005, bank_seconds=0.03)
    record = play_match(
        game, [bot_answering("slow", slow), random_bot("b", 1)], seed=9, time_control=clock
    )
    reasons = record.seats[0].infraction_reasons
    late = [infraction for infraction in reasons if infraction.kind == "late"]
    assert late
    assert re.fullmatch(r"[\d.]+ s with the time bank spent", late[0].detail), late[0].detail
    assert record.seats[1].infractions == 0


def test_a_bot_that_cannot_start_crashes_and_the_others_play_on():
    game = make_game("mia", 3)
    record = play_match(game, [NeverStarts(), random_bot("b", 1), random_bot("c", 2)], seed=1)
    assert record.seats[0].crashed
    assert "SyntaxError" in record.seats[0].crash_reason
    assert record.seats[0].log == "Traceback: SyntaxError"
    assert record.result["places"][0] == 3
    verify_replay(record.replay)


def test_the_number_of_bots_must_match_the_game():
    with pytest.raises(ValueError, match="3 players"):
        play_match(make_game("mia", 3), [random_bot("a", 1), random_bot("b", 2)])


def test_announcing_too_low_costs_a_life_by_the_rules_not_an_infraction():
    def low_baller(observation: JSON) -> JSON:
        if observation["dice"] is not None:
            return {"type": "announce", "value": 31}
        return {"type": "roll"}

    game = make_game("mia", 2)
    record = play_match(game, [bot_answering("low", low_baller), random_bot("b", 4)], seed=11)
    assert record.seats[0].infractions == 0
    reasons = {
        event["reason"]
        for event in record.replay["events"]
        if event["type"] == "life_lost" and event["seat"] == 0
    }
    assert "too_low" in reasons


def test_what_a_bot_prints_is_recorded_at_the_event_of_its_decision(tmp_path):
    source = tmp_path / "chatty.py"
    source.write_text(
        "import itertools, random\n"
        "random.seed(1)\n"
        "decisions = itertools.count()\n"
        "def act(observation):\n"
        "    print('seen', len(observation['history']))\n"
        "    if next(decisions) % 5 == 0:\n"
        "        return {'type': 'nonsense'}\n"
        "    return random.choice(observation['legal_actions'])\n"
    )
    chatty = open_file_bot(source, jail=False)
    record = play_match(make_game("mia", 2), [chatty, random_bot("b", 1)], seed=4)
    entries = record.seats[0].log_entries
    events = record.replay["events"]
    assert len(entries) == record.seats[0].decisions
    assert all(entry["text"].startswith("seen ") for entry in entries)
    for entry in entries:
        event = events[entry["index"]]
        assert event["seat"] == 0 and event["type"] in ("action", "infraction")
    assert any(events[entry["index"]]["type"] == "infraction" for entry in entries)
    assert record.seats[1].log_entries == []


def test_a_traceback_is_recorded_at_the_infraction_it_caused():
    def act(observation: JSON) -> JSON:
        raise ZeroDivisionError("oops")

    record = play_match(make_game("mia", 2), [bot_answering("a", act), random_bot("b", 1)], seed=2)
    entry = record.seats[0].log_entries[0]
    assert record.replay["events"][entry["index"]]["type"] == "infraction"
    assert "ZeroDivisionError: oops" in entry["text"]


LOW_OVER_THE_TOP_DOUBLE = """
def act(observation):
    legal = observation["legal_actions"]
    top = 66 if observation["rules"]["doubles_order"] == "66-high" else 11
    if observation["dice"] is None:
        return {"type": "roll"}
    if observation["round"]["claim"] is None:
        return {"type": "announce", "value": top}
    print("asked over", observation["round"]["claim"], "first offered", legal[0]["value"])
    return next(action for action in legal if action.get("cost"))
"""


@pytest.mark.parametrize("doubles_order, top", [("11-high", 11), ("66-high", 66)])
def test_a_file_bot_is_asked_over_the_top_double_and_its_low_announce_costs_one_life(
    tmp_path, doubles_order, top
):
    path = tmp_path / "low.py"
    path.write_text(LOW_OVER_THE_TOP_DOUBLE)
    game = make_game("mia", 2, "classic", {"lives": 2, "doubles_order": doubles_order})
    bots = [open_file_bot(path, jail=False) for _ in range(2)]
    record = play_match(game, bots, seed=1)
    events = record.replay["events"]
    losses = [event for event in events if event["type"] == "life_lost"]
    assert [(event["lives_lost"], event["reason"]) for event in losses] == [(1, "too_low")] * 2
    assert not [event for event in events if event["type"] in ("reveal", "infraction")]
    loser = losses[0]["seat"]
    assert record.seats[loser].log.count(f"asked over {top} first offered 21") == 2
    verify_replay(record.replay)


def test_progress_is_told_the_events_so_far_before_each_decision():
    game = make_game("muggins", 2)
    seen: list[list[JSON]] = []
    record = play_match(
        game,
        [random_bot("a", 1), random_bot("b", 2)],
        seed=5,
        on_progress=lambda events: seen.append(list(events)),
    )
    events = record.replay["events"]
    assert len(seen) == sum(seat.decisions for seat in record.seats)
    assert all(events[: len(so_far)] == so_far for so_far in seen)
    assert [len(so_far) for so_far in seen] == sorted(len(so_far) for so_far in seen)
    assert len(seen[-1]) < len(events)
