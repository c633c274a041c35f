"""`tavolo play` for a bot author: server seeds, loud infraction warnings, --strict."""

from __future__ import annotations

import json

import pytest

from arena.replay import read_replay

MIA_ACTIONS_IN_MUGGINS = """
def act(observation):
    return {"type": "roll"}
"""


def first_hand(path) -> dict:
    """The deal of a Muggins replay's first hand (every hand and the boneyard)."""
    return next(event for event in read_replay(path)["events"] if event["type"] == "hand")


def test_a_seed_as_a_replay_writes_it_plays_the_same_deal(run, tmp_path):
    first, again = tmp_path / "first", tmp_path / "again"
    run("play", "muggins", "builtin:random", "builtin:strong", "--replays", first)
    seed = read_replay(first / "match-0001.json.gz")["seed"]
    result = run(
        "play", "muggins", "builtin:random", "builtin:strong", "--seed", seed, "--replays", again
    )
    assert result.exit_code == 0, result.output
    assert read_replay(again / "match-0001.json.gz")["seed"] == seed
    assert first_hand(again / "match-0001.json.gz") == first_hand(first / "match-0001.json.gz")


@pytest.mark.parametrize("written", ["0x7e8", "7E8", "000000000000000000000000000007e8"])
def test_a_hexadecimal_seed_is_the_same_seed_as_its_integer(run, tmp_path, written):
    replays = {}
    for seed in ("2024", written):
        folder = tmp_path / seed
        result = run("play", "mia", "builtin:random", "builtin:random", "--seed", seed,
                     "--replays", folder)  # fmt: skip
        assert result.exit_code == 0, result.output
        replays[seed] = read_replay(folder / "match-0001.json.gz")
    assert replays["2024"]["seed"] == "7e8"
    assert replays[written]["events"] == replays["2024"]["events"]


def test_the_servers_32_digits_are_hexadecimal_even_without_a_letter(run, tmp_path):
    run(
        "play", "mia", "builtin:random", "builtin:random", "--seed", "1" * 32, "--replays", tmp_path
    )
    assert read_replay(tmp_path / "match-0001.json.gz")["seed"] == "1" * 32


def test_a_seed_that_is_no_number_is_refused_with_exit_code_2(run):
    result = run("play", "mia", "builtin:random", "builtin:random", "--seed", "0xzz")
    assert result.exit_code == 2
    assert "'0xzz' is not a seed" in result.stderr


@pytest.fixture
def wrong_game_bot(tmp_path):
    path = tmp_path / "wrong_game.py"
    path.write_text(MIA_ACTIONS_IN_MUGGINS)
    return path


def test_a_bot_that_earns_only_infractions_is_warned_about_loudly(run, wrong_game_bot):
    result = run("play", "muggins", wrong_game_bot, "builtin:random", "-n", "2", "--no-jail")
    assert result.exit_code == 0
    assert "tavolo: WARNING: wrong_game.py committed" in result.stderr
    assert "the server would not qualify it" in result.stderr
    assert "illegal action: {'type': 'roll'}" in result.stderr


def test_the_warning_also_comes_with_json_and_leaves_stdout_one_object(run, wrong_game_bot):
    args = ("play", "muggins", wrong_game_bot, "builtin:random", "--no-jail", "--json")
    result = run(*args)
    assert json.loads(result.stdout)["bots"][0]["infractions"] > 1
    assert "WARNING: wrong_game.py" in result.stderr


def test_a_clean_bot_gets_no_warning(run):
    result = run("play", "muggins", "builtin:strong", "builtin:random", "-n", "2")
    assert result.exit_code == 0 and "WARNING" not in result.stderr


@pytest.mark.parametrize("strict, status", [((), 0), (("--strict",), 1)])
def test_strict_turns_infractions_into_exit_status_1(run, wrong_game_bot, strict, status):
    result = run("play", "muggins", wrong_game_bot, "builtin:random", "--no-jail", *strict)
    assert result.exit_code == status
    assert ("tavolo: --strict: wrong_game.py:" in result.stderr) == bool(strict)


def test_strict_turns_a_crash_into_exit_status_1(run, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import nonexistent_module_xyz\n")
    result = run("play", "mia", broken, "builtin:random", "--no-jail", "--strict")
    assert result.exit_code == 1
    assert "broken.py: 0 infractions, 1 crashes" in result.stderr


def test_strict_passes_bots_that_play_clean(run):
    result = run("play", "mia", "builtin:strong", "builtin:random", "-n", "3", "--strict")
    assert result.exit_code == 0


TIMING = ("started_at", "finished_at", "seconds")


def without_timing(replay: dict) -> dict:
    return {key: value for key, value in replay.items() if key not in TIMING}


def test_a_series_is_the_same_whatever_the_number_of_jobs(run, tmp_path):
    bot = tmp_path / "chatty.py"
    bot.write_text(
        "def act(observation):\n"
        "    seen, legal = len(observation['history']), observation['legal_actions']\n"
        "    print(seen)\n"
        "    return legal[seen % len(legal)]\n"
    )
    outputs = {}
    for jobs in (1, 3):
        folder = tmp_path / f"jobs{jobs}"
        result = run(
            "play", "mia", bot, "builtin:random", "builtin:strong", "-n", "7", "--seed", "5",
            "--json", "--no-jail", "--jobs", jobs, "--replays", folder / "replays",
            "--logs", folder / "logs",
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)
        del summary["seconds"]
        replays = {
            path.name: without_timing(read_replay(path))
            for path in sorted((folder / "replays").iterdir())
        }
        logs = {path.name: path.read_text() for path in sorted((folder / "logs").iterdir())}
        outputs[jobs] = (summary, replays, logs)
    assert len(outputs[1][1]) == 7
    assert outputs[1] == outputs[3]
