"""Replay files: written, read back, and re-simulated event by event."""

from __future__ import annotations

import copy
import gzip
import json
import random
from pathlib import Path

import pytest

from arena.api import ENGINE_VERSION
from arena.bots.inprocess import InProcessBot
from arena.games import make_game
from arena.replay import (
    ReplayError,
    ReplayMismatch,
    read_replay,
    verify_replay,
    write_replay,
)
from arena.runner import play_match


@pytest.fixture(scope="module")
def replay() -> dict:
    rngs = [random.Random(seat) for seat in range(3)]
    bots = [
        InProcessBot(f"bot {seat}", lambda obs, rng=rng: rng.choice(obs["legal_actions"]))
        for seat, rng in enumerate(rngs)
    ]
    return play_match(make_game("mia", 3), bots, seed=2024).replay


def test_a_replay_has_the_documented_header(replay):
    assert replay["format"] == "tavolo-replay"
    assert replay["format_version"] == 1
    assert replay["game"] == "mia"
    assert [seat["bot"] for seat in replay["seats"]] == ["bot 0", "bot 1", "bot 2"]
    assert int(replay["seed"], 16) == 2024
    assert replay["result"]["places"]


@pytest.mark.parametrize("name", ["match.json", "match.json.gz"])
def test_a_written_replay_reads_back_equal(tmp_path, replay, name):
    path = write_replay(tmp_path / name, replay)
    assert read_replay(path) == replay
    assert path.read_bytes().startswith(b"\x1f\x8b") == name.endswith(".gz")


def test_an_untouched_replay_verifies(replay):
    verify_replay(replay)


def test_changed_dice_are_found_at_their_event(replay):
    altered = copy.deepcopy(replay)
    index = next(i for i, event in enumerate(altered["events"]) if event["type"] == "dice")
    altered["events"][index]["dice"] = [9, 9]
    with pytest.raises(ReplayMismatch) as mismatch:
        verify_replay(altered)
    assert mismatch.value.index == index


def test_a_changed_action_is_refused_or_found(replay):
    altered = copy.deepcopy(replay)
    index = next(i for i, event in enumerate(altered["events"]) if event["type"] == "action")
    altered["events"][index]["seat"] = (altered["events"][index]["seat"] + 1) % 3
    with pytest.raises(ReplayMismatch) as mismatch:
        verify_replay(altered)
    assert mismatch.value.index is not None and mismatch.value.index <= index


def test_a_changed_result_is_found(replay):
    altered = copy.deepcopy(replay)
    altered["result"]["places"] = list(reversed(altered["result"]["places"]))
    with pytest.raises(ReplayMismatch, match="result"):
        verify_replay(altered)


def test_a_dropped_event_is_found(replay):
    altered = copy.deepcopy(replay)
    del altered["events"][-1]
    with pytest.raises(ReplayMismatch):
        verify_replay(altered)


@pytest.mark.parametrize(
    "content",
    [b"", b"not json", b"[1, 2]", json.dumps({"format": "other"}).encode(), gzip.compress(b"{")],
)
def test_a_file_that_is_not_a_replay_is_refused_with_a_reason(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ReplayError, match="not a replay"):
        read_replay(path)


def test_a_newer_format_version_is_refused(tmp_path, replay):
    path = write_replay(tmp_path / "future.json", {**replay, "format_version": 99})
    with pytest.raises(ReplayError, match="unsupported replay format version 99"):
        read_replay(path)


def test_a_missing_file_is_a_replay_error(tmp_path):
    with pytest.raises(ReplayError, match="cannot read"):
        read_replay(tmp_path / "absent.json")


def test_a_replay_of_the_current_engine_verifies_without_a_warning(replay):
    verification = verify_replay(replay)
    assert verification.engine_version == ENGINE_VERSION
    assert not verification.version_differs and verification.warning is None


def test_a_replay_of_another_engine_version_says_so(replay):
    verification = verify_replay({**replay, "engine_version": "0.9.0"})
    assert verification.version_differs
    assert verification.warning == f"written by engine 0.9.0, verified with engine {ENGINE_VERSION}"


OLD_REPLAYS = sorted((Path(__file__).parent / "replays").glob("engine-1.0.0-*.json.gz"))
"""Classic matches recorded by engine 1.0.0, each with a 21 the runner played
over the top double without asking, and an equal-or-lower announce recorded
without its cost."""


def test_a_new_replay_records_the_engine_version_it_was_played_under(replay):
    assert replay["engine_version"] == ENGINE_VERSION == "1.2.0"


@pytest.mark.parametrize("path", OLD_REPLAYS, ids=lambda path: path.name)
def test_a_replay_of_engine_1_0_0_verifies_under_the_rules_of_that_engine(path):
    old = read_replay(path)
    verification = verify_replay(old)
    assert verification.engine_version == verification.verified_with == "1.0.0"
    assert verification.warning is None


@pytest.mark.parametrize("path", OLD_REPLAYS, ids=lambda path: path.name)
def test_the_same_replay_claimed_for_engine_1_1_0_differs_at_its_low_announce(path):
    old = read_replay(path)
    low = next(
        index
        for index, event in enumerate(old["events"])
        if event["type"] == "action"
        and event["action"]["type"] == "announce"
        and old["events"][index + 2]["type"] == "life_lost"
    )
    with pytest.raises(ReplayMismatch) as mismatch:
        verify_replay({**old, "engine_version": "1.1.0"})
    assert mismatch.value.index == low
