"""Play a recorded match again with some seats taken by other bots.

`rerun_replay` starts the match again from the replay's seed, under the rules
of the engine version it records, so the dice and deals are the same. The
seats given new bots are played by them, through the same runner, clock and
penalties as any match. Every other seat is played from the recording:

- while the new run's events are still the recording's, a recorded seat
  answers exactly what it answered then: its action, or the same infraction
  or crash (by returning the fault the runner turns into that event);
- after the first difference, a recorded seat plays its next recorded choice
  (the decisions it was asked, in order, infractions and crashes left out) if
  that is a legal action now, and otherwise what a built-in stand-in bot
  (`builtin:strong` unless told otherwise) chooses.

So a rerun with the same bot file in the replaced seat reproduces a match
event for event (barring a bot whose answers depend on time or chance of its
own), and a different bot shows what would have happened instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from arena.bots.handle import Answer, BotHandle, Fault
from arena.bots.registry import builtin_bots, open_bot
from arena.engine import INPUT_EVENT_TYPES, JSON, Game, State
from arena.replay import game_of, resimulate
from arena.runner import DEFAULT_TIME_CONTROL, MatchRecord, TimeControl, play_match

DEFAULT_STAND_IN = "strong"
"""The built-in bot that plays a recorded seat's choices the recording cannot give."""


def seat_bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot in `seat`, derived from the match's seed: the server
    seeds its bots with it, so a built-in bot put back in its seat plays as it did there."""
    return random.Random(f"{match_seed}:{seat}").getrandbits(64)


@dataclass
class RerunResult:
    """The new run, and how it compares with the recording."""

    record: MatchRecord
    recorded: JSON
    """The original replay."""
    first_difference: int | None
    """The index of the first event that differs (or that one run lacks), or
    None when the new run is the recording, event for event."""


class Recording:
    """The recorded match, and how far the new run still follows it."""

    def __init__(self, replay: JSON) -> None:
        self.events: list[JSON] = replay["events"]
        self.state: State | None = None
        """The new run's state, once the runner has made it."""
        self.matched = 0
        """How many leading events the new run shares with the recording."""
        self.asked = _asked_choices(replay)

    def follows(self) -> bool:
        """True while every event of the new run so far is the recording's."""
        assert self.state is not None
        made = self.state.events
        while (
            self.matched < min(len(made), len(self.events))
            and made[self.matched] == self.events[self.matched]
        ):
            self.matched += 1
        return self.matched == len(made)

    def recorded_input(self, seat: int) -> JSON | None:
        """The input event of `seat` the recording has next, while the new run
        follows it; None once it does not (or the recording has none there)."""
        if not self.follows():
            return None
        assert self.state is not None
        position = len(self.state.events)
        if position >= len(self.events):
            return None
        event = self.events[position]
        if event.get("type") in INPUT_EVENT_TYPES and event.get("seat") == seat:
            return event
        return None


def _asked_choices(replay: JSON) -> dict[int, list[tuple[int, JSON]]]:
    """Each seat's recorded actions that it was asked for (two or more legal
    actions), as (event index, action), in order."""
    asked: dict[int, list[tuple[int, JSON]]] = {}
    events = replay["events"]
    for state, index in resimulate(replay):
        event = events[index] if index < len(events) else {}
        if event.get("type") == "action" and len(state.legal_actions()) > 1:
            asked.setdefault(event["seat"], []).append((index, event["action"]))
    return asked


class RecordedSeat:
    """A `BotHandle` that plays one seat from the recording (see the module)."""

    logs_only_with_faults = True
    """It prints nothing at all."""

    def __init__(
        self, name: str, seat: int, recording: Recording, stand_in: Callable[[JSON], JSON]
    ) -> None:
        self.name = name
        self.seat = seat
        self.recording = recording
        self.stand_in = stand_in
        self.later: list[JSON] | None = None
        """The seat's recorded choices after the first difference, once there is one."""

    def start(self) -> str | None:
        event = self.recording.recorded_input(self.seat)
        if event is not None and event["type"] == "crash":
            reason: str = event["reason"]
            return reason.removeprefix("could not start: ")
        return None

    def decide(self, observation: JSON, timeout: float) -> Answer:
        event = self.recording.recorded_input(self.seat)
        if event is not None:
            if event["type"] == "action":
                return event["action"]
            return Fault(event["reason"], crash=event["type"] == "crash")
        if self.later is None:
            since = self.recording.matched
            choices = self.recording.asked.get(self.seat, [])
            self.later = [action for index, action in choices if index >= since]
        if self.later:
            choice = self.later.pop(0)
            if choice in observation["legal_actions"]:
                return choice
        return self.stand_in(observation)

    def take_log(self) -> str:
        return ""

    def close(self) -> str:
        return ""


class _WatchedGame:
    """The replay's game, handing the state it makes to the recording."""

    def __init__(self, game: Game, recording: Recording) -> None:
        self._game = game
        self._recording = recording

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def new_state(self, seed: int) -> State:
        state = self._game.new_state(seed)
        self._recording.state = state
        return state


def rerun_replay(
    replay: JSON,
    bots: Mapping[int, str],
    *,
    jail: bool = True,
    stand_in: str = DEFAULT_STAND_IN,
) -> RerunResult:
    """Play `replay`'s match again with seat s played by the bot spec `bots[s]`.

    Raises ReplayError or ReplayMismatch for a replay the engine does not
    reproduce, ValueError for a seat that is not in the match, and
    BotSpecError for a bot that cannot be found.
    """
    game = game_of(replay)
    recording = Recording(replay)
    for seat in bots:
        if not 0 <= seat < game.players:
            raise ValueError(f"seat {seat} is not in this {game.players}-player match")
    stand_ins = builtin_bots(game.name)
    if stand_in not in stand_ins:
        raise ValueError(f"no built-in {game.name} bot {stand_in!r}: choose {', '.join(stand_ins)}")
    seed = int(replay["seed"], 16)
    handles: list[BotHandle] = []
    for seat, recorded in enumerate(replay["seats"]):
        if seat in bots:
            spec = bots[seat]
            handles.append(
                open_bot(spec, game=game.name, seed=seat_bot_seed(seed, seat), jail=jail)
            )
        else:
            act = stand_ins[stand_in](seat_bot_seed(seed, seat))
            handles.append(RecordedSeat(recorded["bot"], seat, recording, act))
    time_control = replay.get("time_control") or {}
    record = play_match(
        _WatchedGame(game, recording),  # type: ignore[arg-type]
        handles,
        seed=seed,
        time_control=TimeControl(
            decision_seconds=time_control.get(
                "decision_seconds", DEFAULT_TIME_CONTROL.decision_seconds
            ),
            bank_seconds=time_control.get("bank_seconds", DEFAULT_TIME_CONTROL.bank_seconds),
        ),
    )
    return RerunResult(
        record=record,
        recorded=replay,
        first_difference=first_difference(replay["events"], record.replay["events"]),
    )


def first_difference(recorded: list[JSON], made: list[JSON]) -> int | None:
    """The index of the first event that differs or that only one list has."""
    for index, (old, new) in enumerate(zip(recorded, made, strict=False)):
        if old != new:
            return index
    if len(recorded) != len(made):
        return min(len(recorded), len(made))
    return None
