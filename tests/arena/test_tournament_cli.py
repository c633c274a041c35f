"""`tavolo tournament` with the built-in bots, in every format: exit codes and output."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.cli import tavolo


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: object):
        return runner.invoke(tavolo, [str(arg) for arg in args], catch_exceptions=False)

    return invoke


STRONG_AND_RANDOMS = ("builtin:strong", "builtin:random", "builtin:random", "builtin:random")


@pytest.mark.parametrize(
    ("game", "options", "matches"),
    [
        ("mia", ("--format", "round-robin", "--seats", "3", "--repeat", "3"), 12),
        ("muggins", ("--format", "round-robin", "--repeat", "2"), 12),
        ("mia", ("--format", "swiss", "--rounds", "3"), 6),
        ("muggins", ("--format", "swiss", "--seats", "3", "--rounds", "2"), 2),
        ("mia", ("--format", "knockout", "--best-of", "3"), None),
        ("mia", ("--format", "knockout", "--elimination", "double"), None),
        ("mia", ("--format", "knockout", "--seats", "2", "--groups", "2"), None),
    ],
)
def test_every_format_plays_to_a_standing_of_every_entrant(run, game, options, matches):
    result = run("tournament", game, *STRONG_AND_RANDOMS, *options, "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == game and report["format"] == options[1]
    if matches is not None:
        assert report["matches"] == matches
    standings = report["standings"]
    assert [line["rank"] for line in standings] == [1, 2, 3, 4]
    assert {line["name"] for line in standings} == {
        "builtin:strong",
        "builtin:random #1",
        "builtin:random #2",
        "builtin:random #3",
    }
    for line in standings:
        low, high = line["win_rate_interval"]
        assert 0 <= low <= line["win_rate"] <= high <= 1
        assert line["games"] > 0 or options[1] == "knockout"


def test_a_round_robin_says_how_its_tables_bring_the_entrants_together(run):
    options = ("--format", "round-robin", "--seats", "3", "--no-jail")
    result = run("tournament", "mia", *STRONG_AND_RANDOMS, *options)
    assert result.exit_code == 0, result.output
    assert "Schedule: every combination of 3 of the 4 entrants: every pair meets twice" in (
        " ".join(result.output.split())
    )


def test_a_knockout_names_one_champion_and_the_table_shows_it(run):
    result = run("tournament", "mia", *STRONG_AND_RANDOMS, "--format", "knockout", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("champion") == 1 and "95% CI" in result.stdout


def test_the_same_seed_gives_the_same_event(run):
    args = ("tournament", "mia", *STRONG_AND_RANDOMS, "--format", "swiss", "--rounds", "2")
    first, second = (json.loads(run(*args, "--seed", "7", "--json").stdout) for _ in range(2))
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_replays_are_saved_per_table_and_verify(run, tmp_path):
    replays = tmp_path / "replays"
    result = run(
        "tournament", "mia", "builtin:strong", "builtin:random", "builtin:random",
        "--format", "round-robin", "--seats", "3", "--repeat", "3", "--replays", replays,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(replays.glob("*.json.gz"))
    assert [path.name for path in files] == [
        "match-0001-r1-s1-g1.json.gz",
        "match-0002-r2-s1-g2.json.gz",
        "match-0003-r3-s1-g3.json.gz",
    ]
    assert run("replay", "verify", *files).exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--format", "round-robin", "--seats", "5"), "4 entrants cannot fill a table of 5 seats"),
        (("--format", "knockout", "--seats", "4"), "needs groups"),
        (("--format", "swiss", "--rounds", "0"), "rounds must be at least 1"),
        (("--format", "round-robin", "--repeat", "0"), "repeat must be at least 1"),
        (("--format", "round-robin", "--points", "1,x"), "--points wants numbers"),
        (("--format", "round-robin", "--seats", "7"), "cannot fill a table of 7"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_code_2(run, args, message):
    result = run("tournament", "mia", *STRONG_AND_RANDOMS, *args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_an_unknown_bot_is_named(run):
    result = run("tournament", "mia", "builtin:strong", "builtin:nobody", "--format", "swiss",
                 "--rounds", "1")  # fmt: skip
    assert result.exit_code == 2 and "builtin:nobody" in result.stderr


@pytest.mark.parametrize("strict, status", [((), 0), (("--strict",), 1)])
def test_strict_turns_a_crash_into_exit_status_1(run, tmp_path, strict, status):
    broken = tmp_path / "broken.py"
    broken.write_text("import nonexistent_module_xyz\n")
    result = run(
        "tournament", "mia", broken, "builtin:random", "--format", "round-robin", "--no-jail",
        *strict,
    )  # fmt: skip
    assert result.exit_code == status
    assert ("tavolo: --strict: broken.py: 0 infractions, 1 crashes" in result.stderr) == bool(
        strict
    )


def test_strict_passes_an_event_played_clean(run):
    result = run("tournament", "mia", *STRONG_AND_RANDOMS[:3], "--format", "swiss",
                 "--rounds", "2", "--strict")  # fmt: skip
    assert result.exit_code == 0, result.output
