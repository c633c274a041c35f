"""The `tavolo` command, run as a user runs it: exit codes and output."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest


def test_play_json_prints_exactly_one_object_with_the_documented_keys(run):
    result = run(
        "play", "mia", "builtin:strong", "builtin:random", "-n", "6", "--json", "--seed", "1"
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) == {"game", "games", "decisions", "seconds", "bots"}
    assert report["game"] == "mia" and report["games"] == 6 and report["decisions"] > 0
    assert {bot["name"] for bot in report["bots"]} == {"builtin:strong", "builtin:random"}
    assert sum(bot["wins"] for bot in report["bots"]) == 6
    assert set(report["bots"][0]) == {
        "name",
        "games",
        "wins",
        "mean_place",
        "infractions",
        "crashes",
    }


def test_the_same_seed_gives_the_same_run(run):
    args = (
        "play",
        "muggins",
        "builtin:random",
        "builtin:random",
        "-n",
        "3",
        "--json",
        "--seed",
        "9",
    )
    first, second = (json.loads(run(*args).stdout) for _ in range(2))
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_play_shows_a_table_per_bot(run):
    result = run("play", "mia", "builtin:strong", "builtin:random", "builtin:random", "-n", "3")
    assert result.exit_code == 0
    assert "builtin:random #2" in result.stdout and "95% CI" in result.stdout


def test_saved_replays_verify_and_an_altered_one_is_named(run, tmp_path):
    replays = tmp_path / "replays"
    assert (
        run(
            "play", "mia", "builtin:random", "builtin:random", "-n", "2", "--replays", replays
        ).exit_code
        == 0
    )
    files = sorted(replays.glob("*.json.gz"))
    assert [path.name for path in files] == ["match-0001.json.gz", "match-0002.json.gz"]
    assert run("replay", "verify", *files).exit_code == 0

    replay = json.loads(gzip.decompress(files[0].read_bytes()))
    index = next(i for i, event in enumerate(replay["events"]) if event["type"] == "dice")
    replay["events"][index]["dice"] = (
        [1, 1] if replay["events"][index]["dice"] != [1, 1] else [2, 2]
    )
    files[0].write_bytes(gzip.compress(json.dumps(replay).encode()))
    result = run("replay", "verify", *files)
    assert result.exit_code == 1
    assert f"event {index} differs" in result.stderr
    assert "match-0002.json.gz: ok" in result.stdout


def test_verify_warns_of_a_replay_written_by_another_engine_version(run, tmp_path):
    run("play", "mia", "builtin:random", "builtin:random", "--replays", tmp_path)
    path = tmp_path / "match-0001.json.gz"
    replay = json.loads(gzip.decompress(path.read_bytes()))
    path.write_bytes(gzip.compress(json.dumps({**replay, "engine_version": "0.9.0"}).encode()))
    result = run("replay", "verify", path)
    assert result.exit_code == 0
    assert "match-0001.json.gz: ok" in result.stdout
    assert "warning: written by engine 0.9.0" in result.stderr


def test_replay_show_prints_a_transcript_with_the_result(run, tmp_path):
    run("play", "muggins", "builtin:random", "builtin:random", "--replays", tmp_path)
    result = run("replay", "show", tmp_path / "match-0001.json.gz")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Muggins, 2 players, 7 tiles each") and "{" not in lines[0]
    assert lines[-1].startswith("result: 1.")
    numbers = [int(line.split()[0]) for line in lines[3:-1]]
    assert numbers == sorted(set(numbers)), "one numbering, each line one event"
    assert "chooses" not in result.stdout


def test_replay_show_tells_a_view_without_what_it_did_not_know(run, tmp_path):
    run("play", "mia", "builtin:random", "builtin:random", "--replays", tmp_path)
    replay = tmp_path / "match-0001.json.gz"
    full = run("replay", "show", replay).stdout
    public = run("replay", "show", replay, "--view", "public", "--decisions").stdout
    assert " and " in full and "rolls under the cup" not in full
    assert "under the cup" in public and "chooses to roll" in public
    assert not any(line.split()[-1:] == ["cup"] and " and " in line for line in public.splitlines())
    bad = run("replay", "show", replay, "--view", "9")
    assert bad.exit_code == 2 and "view must be" in bad.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (("play", "chess", "builtin:random", "builtin:random"), "unknown game 'chess'"),
        (("play", "mia", "builtin:random", "builtin:random", "--variant", "nope"), "variant"),
        (("play", "mia", "builtin:random", "builtin:random", "--option", "colour=red"), "colour"),
        (("play", "mia", "builtin:random", "builtin:random", "--option", "lives"), "key=value"),
        (("play", "muggins", *["builtin:random"] * 5), "players"),
        (("play", "muggins", "builtin:random", "builtin:random", "--option", "target=0"), "target"),
        (("play", "mia", "builtin:random", "no_such_bot.py"), "no such bot file"),
        (("play", "mia", "builtin:random", "builtin:genius"), "unknown built-in bot"),
        (("play", "mia", "builtin:random", "builtin:random", "--games", "0"), "--games"),
        (("new-bot", "go", "x.py"), "unknown game 'go'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tavolo: error:"), result.stderr
    assert message in lines[0]


def test_a_file_that_is_not_a_replay_is_exit_code_2(run, tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("{}")
    result = run("replay", "verify", junk)
    assert result.exit_code == 2
    assert "not a replay" in result.stderr


@pytest.mark.parametrize("game", ["mia", "muggins"])
def test_a_new_bot_plays_legal_moves(run, tmp_path, game):
    path = tmp_path / f"{game}_bot.py"
    assert run("new-bot", game, path).exit_code == 0
    result = run("play", game, path, "builtin:random", "-n", "3", "--json", "--no-jail")
    assert result.exit_code == 0, result.output
    mine = json.loads(result.stdout)["bots"][0]
    assert mine["infractions"] == 0 and mine["crashes"] == 0


def test_new_bot_refuses_to_overwrite(run, tmp_path):
    path = tmp_path / "bot.py"
    path.write_text("precious")
    result = run("new-bot", "mia", path)
    assert result.exit_code == 2 and path.read_text() == "precious"


def test_a_bot_that_fails_to_import_is_shown_with_its_traceback(run, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import nonexistent_module_xyz\n")
    result = run("play", "mia", broken, "builtin:random", "--no-jail")
    assert result.exit_code == 0
    assert "crash" in result.stdout
    assert "nonexistent_module_xyz" in result.stdout
    assert "--no-jail" in result.stderr


def test_play_imports_neither_the_platform_nor_the_http_client():
    code = (
        "import sys\nfrom arena.cli import main\nsys.argv = ['tavolo', 'play', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in ('httpx', 'django', 'celery') if name in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[-1] == "[]"


def test_the_platform_command_is_listed_and_loads_when_asked_for(run):
    result = run("--help")
    assert "standalone" in result.stdout and "play" in result.stdout
    assert "--data-dir" in run("standalone", "--help").stdout
