"""The PettingZoo environments: PettingZoo's own tests, and a view of the bot API."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.engine import IllegalActionError
from arena.envs import make_env, mia, muggins
from arena.games import make_game
from arena.runner import play_match
from arena.series import play_series

SETUPS = [
    ("mia", 2, None),
    ("mia", 4, "no-guarantee"),
    ("mia", 3, "croatian"),
    ("muggins", 2, None),
    ("muggins", 3, None),
]
TRAINING_DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"


@pytest.mark.parametrize("game, players, variant", SETUPS)
def test_the_environment_passes_pettingzoos_api_test(game, players, variant):
    api_test(make_env(game, players, variant), num_cycles=200)


@pytest.mark.parametrize("game, players, variant", SETUPS)
def test_the_environment_passes_pettingzoos_seed_test(game, players, variant):
    seed_test(lambda: make_env(game, players, variant), num_cycles=200)


def play_env_with(env, acts, seed) -> dict[str, float]:
    """Play one match in `env`, each agent's action chosen by its bot's `act`;
    each agent's reward at the end."""
    env.reset(seed=seed)
    final = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        env.step(env.number_of(acts[agent](env.bot_observation(agent))))
    return final


@pytest.mark.parametrize("game, players", [("mia", 3), ("muggins", 2)])
def test_the_environment_plays_the_match_the_runner_plays(game, players):
    """Same seed, same bots: the same events, so agents are asked where bots are."""
    strong = builtin_bots(game)["strong"]
    env = make_env(game, players)
    play_env_with(env, {f"seat_{seat}": strong(seat) for seat in range(players)}, seed=99)
    bots = [InProcessBot(f"b{seat}", strong(seat)) for seat in range(players)]
    record = play_match(make_game(game, players), bots, seed=99)
    assert env.state_of_match.events == record.replay["events"]


@pytest.mark.parametrize("game, players, variant", SETUPS)
def test_the_mask_is_the_legal_actions_and_the_encoding_is_the_documented_one(
    game, players, variant
):
    catalogue = {"mia": mia, "muggins": muggins}[game]
    env = make_env(game, players, variant)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter(400):
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        legal = env.bot_observation(agent)["legal_actions"]
        allowed = np.flatnonzero(observation["action_mask"])
        assert len(legal) >= 2, "a single choice is played by the environment"
        assert [env.action_of(int(number)) for number in allowed] == sorted(
            legal, key=catalogue.action_number
        )
        flat = observation["observation"]
        assert flat.shape == (catalogue.encoding_size(players),)
        assert np.array_equal(flat, np.float32(catalogue.encode(env.bot_observation(agent))))
        env.step(int(rng.choice(allowed)))


def test_a_costly_announce_has_the_number_of_its_plain_announce():
    assert mia.action_number({"type": "announce", "value": 31, "cost": 1}) == mia.action_number(
        {"type": "announce", "value": 31}
    )
    assert mia.ACTION_COUNT == 46 and muggins.ACTION_COUNT == 56


def test_an_action_the_mask_does_not_allow_is_refused_and_changes_nothing():
    env = make_env("mia", 2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    refused = int(np.flatnonzero(mask == 0)[0])
    events = len(env.state_of_match.events)
    with pytest.raises(IllegalActionError):
        env.step(refused)
    assert len(env.state_of_match.events) == events


def test_a_reset_with_a_seed_starts_the_match_from_that_very_seed():
    env = make_env("muggins", 2)
    env.reset(seed=0x7E8)
    deal = make_game("muggins", 2).new_state(0x7E8).events
    assert env.state_of_match.events[: len(deal)] == deal


def test_rewards_follow_the_places_at_the_end():
    env = make_env("mia", 3)
    strong = builtin_bots("mia")["strong"]
    final = play_env_with(env, {f"seat_{seat}": strong(seat) for seat in range(3)}, seed=4)
    places = env.state_of_match.result().places
    assert final == {f"seat_{seat}": {1: 1.0, 2: 0.0, 3: -1.0}[places[seat]] for seat in range(3)}
    assert not env.agents


def test_arena_imports_without_pettingzoo_and_make_env_says_what_to_install():
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('pettingzoo', 'gymnasium'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import arena.cli, arena.envs\n"
        "try:\n"
        "    arena.envs.make_env('mia')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert "uv sync --group envs" in done.stdout


def doc_block(number: int) -> str:
    return re.findall(r"```python\n(.*?)```", TRAINING_DOC.read_text(), re.DOTALL)[number]


def test_the_training_example_tunes_a_policy_and_writes_a_bot_that_plays_clean(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "training_example"}
    exec(compile(doc_block(1), str(TRAINING_DOC), "exec"), namespace)
    best, results = namespace["tune"](ranks=(10, 20), matches=6)
    assert best in (10, 20) and set(results) == {10, 20}
    bot = tmp_path / "my_mia_bot.py"
    assert f"ACCUSE_FROM = {best}" in bot.read_text()
    series = play_series(
        make_game("mia", 4), [str(bot), "builtin:strong", "builtin:strong", "builtin:strong"],
        games=2, seed=1, jail=False,
    )  # fmt: skip
    assert series.tallies[0].infractions == 0 and series.tallies[0].crashes == 0


def test_the_masked_random_example_plays_to_the_end():
    namespace: dict = {}
    exec(compile(doc_block(2), str(TRAINING_DOC), "exec"), namespace)
    assert not namespace["env"].agents
