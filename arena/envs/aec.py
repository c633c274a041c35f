"""`TavoloEnv`: a PettingZoo AEC environment that plays one Tavolo game.

It is a view of the bot API, not a second set of rules: it drives the same
engine state that the match runner drives, asks each agent exactly where the
runner would ask a bot (the rules' single choices, such as the starter's roll
in Mia, are played by the environment as the runner plays them), and builds
every observation from the bot API's observation dict. See docs/training.md.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.engine import JSON, Game, IllegalActionError, State
from arena.envs import mia, muggins
from arena.runner import DEFAULT_TIME_CONTROL

CATALOGUES: dict[str, ModuleType] = {"mia": mia, "muggins": muggins}
"""Each game's action numbers and flat encoding, by game name."""


def place_reward(place: int, players: int) -> float:
    """1 for first place, -1 for last, evenly spaced between."""
    return 1.0 - 2.0 * (place - 1) / (players - 1)


class TavoloEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """One game of Mia or Muggins for `game.players` agents, ``seat_0`` onward.

    - `observe(agent)`: ``{"observation": flat encoding, "action_mask": int8}``,
      the flat encoding and the action numbers of the game's module
      (`arena.envs.mia`, `arena.envs.muggins`); the mask is all zero for an
      agent that is not to act.
    - `bot_observation(agent)`: the bot API's observation dict, as a bot's
      ``act`` gets it (with the default ``time``); `action_of(number)` and
      `number_of(action)` turn action numbers into action dicts and back.
    - `step(number)` plays the action with that number; a number the mask does
      not allow raises `IllegalActionError` (the rules do not punish).
    - Rewards come once, at the end of the match: `place_reward` of each
      agent's place. Every agent terminates then (no truncation: the games'
      own caps end a match by the rules).
    - `reset(seed=S)` starts the match from seed S exactly (the seed of a
      replay or a server match gives the same dice or deals); a reset without
      a seed takes the next seed drawn from the last one given.
    """

    metadata = {"name": "tavolo_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.catalogue = CATALOGUES[game.name]
        self.possible_agents = [f"seat_{seat}" for seat in range(game.players)]
        size = self.catalogue.encoding_size(game.players)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.catalogue.ACTION_COUNT,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.catalogue.ACTION_COUNT) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self._state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            match_seed = seed
        else:
            match_seed = self._seeds.getrandbits(128)
        self._state = self.game.new_state(match_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._play_single_choices()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self.action_of(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in self.agents}
        self.state_of_match.apply(chosen)
        self._play_single_choices()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        observation = self.state_of_match.observation(seat)
        mask = np.zeros(self.catalogue.ACTION_COUNT, dtype=np.int8)
        for action in observation["legal_actions"]:
            mask[self.catalogue.action_number(action)] = 1
        encoded = np.asarray(self.catalogue.encode(observation), dtype=np.float32)
        return {"observation": encoded, "action_mask": mask}

    def bot_observation(self, agent: str) -> JSON:
        """The bot API's observation of `agent` now, with the default ``time``
        (read it before the next step, as a bot reads its own)."""
        seat = self.possible_agents.index(agent)
        observation = dict(self.state_of_match.observation(seat))
        observation["time"] = {
            "decision_seconds": DEFAULT_TIME_CONTROL.decision_seconds,
            "bank_seconds": DEFAULT_TIME_CONTROL.bank_seconds,
        }
        return observation

    def action_of(self, number: int) -> JSON:
        """The legal action dict of the current agent with that number."""
        for action in self.state_of_match.legal_actions():
            if self.catalogue.action_number(action) == number:
                return action
        raise IllegalActionError(f"action {number} is not legal now (see the action mask)")

    def number_of(self, action: JSON) -> int:
        """The action number of an action dict (a bot's answer, say)."""
        try:
            return int(self.catalogue.action_number(action))
        except (KeyError, TypeError, ValueError):
            raise IllegalActionError(f"not a {self.game.name} action: {action!r}") from None

    @property
    def state_of_match(self) -> State:
        """The engine state being played (hidden dice and tiles included)."""
        if self._state is None:
            raise RuntimeError("call reset() before anything else")
        return self._state

    def close(self) -> None:
        self._state = None

    def _play_single_choices(self) -> None:
        """Play every action the rules leave no choice about, as the runner does;
        then select the agent to act, or end the match for everyone."""
        state = self.state_of_match
        while not state.is_over() and len(legal := state.legal_actions()) == 1:
            state.apply(legal[0])
        if state.is_over():
            places = state.result().places
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = place_reward(places[seat], len(places))
                self.terminations[agent] = True
            self.agent_selection = self.possible_agents[0]
        else:
            current = state.current_seat()
            assert current is not None
            self.agent_selection = self.possible_agents[current]
