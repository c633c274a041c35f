"""Replay format v1: build, write, read and verify match replays.

A replay is one JSON object (docs/replay-format.md): a header, every event of
the match with the whole truth, and the result. Verifying re-simulates the
match from its seed and its input events and compares event by event.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from arena.api import API_VERSION, ENGINE_VERSION, ENGINE_VERSIONS, REPLAY_FORMAT_VERSION
from arena.engine import INPUT_EVENT_TYPES, JSON, Game, IllegalActionError, RulesError, State
from arena.games import game_from_rules

REPLAY_FORMAT = "tavolo-replay"
GZIP_MAGIC = b"\x1f\x8b"


RAISED = "act raised "
"""How an infraction's reason starts when the bot's act raised an exception."""


def public_reason(reason: str) -> str:
    """An infraction's or crash's reason as anyone may read it.

    When a bot's `act` raised, its reason names the exception's type and its
    message (``act raised ValueError: secret``); the message may tell the bot's
    thinking, so only the owner reads it, in the bot's log. The public reason
    keeps the type (``act raised ValueError``), as a load failure's does. Every
    other reason is public as it is.
    """
    if not reason.startswith(RAISED):
        return reason
    kind = reason[len(RAISED) :].partition(":")[0].strip()
    return RAISED + (kind if kind.isidentifier() else "an exception")


def public_replay(replay: JSON) -> JSON:
    """The replay with every reason made public (`public_reason`); the same object if no
    reason changes. Verifying takes reasons from the file, so both verify alike."""
    events = replay.get("events", [])
    changed = [
        index
        for index, event in enumerate(events)
        if isinstance(event, dict)
        and isinstance(event.get("reason"), str)
        and event.get("type") in ("infraction", "crash")
        and public_reason(event["reason"]) != event["reason"]
    ]
    if not changed:
        return replay
    events = list(events)
    for index in changed:
        events[index] = {**events[index], "reason": public_reason(events[index]["reason"])}
    return {**replay, "events": events}


class ReplayError(ValueError):
    """A file that is not a readable Tavolo replay."""


class ReplayMismatch(ValueError):
    """A replay whose events or result the engine does not reproduce."""

    def __init__(self, index: int | None, message: str) -> None:
        super().__init__(message)
        self.index = index


def build_replay(
    *,
    game: Game,
    bot_names: list[str],
    seed: int,
    events: list[JSON],
    result: JSON,
    started_at: datetime,
    seconds: float,
    time_control: dict[str, float],
) -> JSON:
    """The replay of a finished match, ready to be written as JSON."""
    return {
        "format": REPLAY_FORMAT,
        "format_version": REPLAY_FORMAT_VERSION,
        "engine_version": game.engine_version,
        "api_version": API_VERSION,
        "game": game.name,
        "rules": game.rules,
        "seats": [{"seat": seat, "bot": name} for seat, name in enumerate(bot_names)],
        "seed": format(seed, "x"),
        "started_at": started_at.isoformat(),
        "finished_at": (started_at + timedelta(seconds=seconds)).isoformat(),
        "seconds": round(seconds, 6),
        "time_control": time_control,
        "events": events,
        "result": result,
    }


def dumps_replay(replay: JSON, *, compress: bool = False) -> bytes:
    """The replay as compact UTF-8 JSON bytes, gzipped if asked."""
    data = json.dumps(replay, separators=(",", ":")).encode()
    return gzip.compress(data, mtime=0) if compress else data


def write_replay(path: str | Path, replay: JSON) -> Path:
    """Write `replay` to `path`; a name ending in `.gz` is gzipped."""
    path = Path(path)
    path.write_bytes(dumps_replay(replay, compress=path.suffix == ".gz"))
    return path


def loads_replay(data: bytes) -> JSON:
    """Parse replay bytes (plain or gzipped JSON); raise ReplayError if not a replay."""
    try:
        if data.startswith(GZIP_MAGIC):
            data = gzip.decompress(data)
        replay: JSON = json.loads(data)
    except (OSError, EOFError, ValueError) as error:
        raise ReplayError(f"not a replay: {error}") from None
    _check_header(replay)
    return replay


def read_replay(path: str | Path) -> JSON:
    """Read a replay file; raise ReplayError with one clear line if it is not one."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error.strerror or error}") from None
    return loads_replay(data)


def _check_header(replay: Any) -> None:
    if not isinstance(replay, dict) or replay.get("format") != REPLAY_FORMAT:
        raise ReplayError("not a replay: no 'format': 'tavolo-replay' header")
    version = replay.get("format_version")
    if version != REPLAY_FORMAT_VERSION:
        raise ReplayError(f"unsupported replay format version {version!r}")
    for key, kind in (("rules", dict), ("events", list), ("seats", list), ("seed", str)):
        if not isinstance(replay.get(key), kind):
            raise ReplayError(f"not a replay: {key!r} is missing or not a {kind.__name__}")


def engine_version_of(replay: JSON) -> str:
    """The engine version whose rules re-simulate `replay`: the one it records
    when this code runs that one, else the current one (a best effort, which
    `Verification.warning` points out)."""
    version = replay.get("engine_version")
    return version if isinstance(version, str) and version in ENGINE_VERSIONS else ENGINE_VERSION


def game_of(replay: JSON) -> Game:
    """Rebuild the rules object a replay was played under, with the rules of
    `engine_version_of(replay)`."""
    try:
        return game_from_rules(replay["rules"], engine_version=engine_version_of(replay))
    except (RulesError, KeyError, TypeError) as error:
        raise ReplayError(f"the replay's rules are not valid: {error}") from None


@dataclass(frozen=True)
class Verification:
    """A replay the engine reproduced, and under which engine version's rules."""

    engine_version: str | None
    """The version the replay records (None in a replay that records none)."""
    verified_with: str = ENGINE_VERSION
    """The version whose rules re-simulated it: the recorded one if this code
    runs it (`arena.api.ENGINE_VERSIONS`), else the current one."""

    @property
    def version_differs(self) -> bool:
        return self.engine_version != self.verified_with

    @property
    def warning(self) -> str | None:
        """One line saying the replay was written by an engine version this code
        does not run, if it was."""
        if not self.version_differs:
            return None
        return f"written by engine {self.engine_version}, verified with engine {self.verified_with}"


def verify_replay(replay: JSON) -> Verification:
    """Re-simulate `replay`; raise ReplayMismatch naming the first difference.

    The replay is re-simulated under the rules of the engine version it
    records (`engine_version_of`); the result says which version wrote it and
    which verified it, so that a caller can tell the reader when they differ.
    """
    version = replay.get("engine_version")
    *_, (state, _) = resimulate(replay)
    result = state.result().to_json()
    if replay.get("result") != result:
        raise ReplayMismatch(
            None, f"result differs: recorded {replay.get('result')}, engine {result}"
        )
    return Verification(
        engine_version=version if isinstance(version, str) else None,
        verified_with=engine_version_of(replay),
    )


def resimulate(replay: JSON, *, partial: bool = False) -> Iterator[tuple[State, int]]:
    """Re-simulate `replay` from its seed, checking every event on the way.

    Yields the engine's state and how many recorded events it accounts for:
    once before the first input event, then after each input event (the state
    is the same object throughout, brought up to date). Raises ReplayMismatch
    at the first event the engine does not reproduce. With `partial`, the
    replay may stop anywhere (a match still being played): its events must be
    the start of what the engine makes.
    """
    game = game_of(replay)
    try:
        seed = int(replay["seed"], 16)
    except ValueError:
        raise ReplayMismatch(None, f"seed {replay['seed']!r} is not hexadecimal") from None
    state = game.new_state(seed)
    recorded: list[Any] = replay["events"]
    checked = 0
    for index, event in enumerate(recorded):
        if not isinstance(event, dict):
            raise ReplayMismatch(index, f"event {index} is not an object")
        if event.get("type") in INPUT_EVENT_TYPES:
            checked = _compare_events(recorded, state.events, start=checked, upto=index)
            yield state, index
            _feed(state, index, event)
    upto = len(recorded)
    made = state.events[:upto] if partial else state.events
    _compare_events(recorded, made, start=checked, upto=upto)
    yield state, upto


def _feed(state: Any, index: int, event: JSON) -> None:
    if state.is_over():
        raise ReplayMismatch(index, f"event {index}: input after the match ended")
    try:
        seat = event["seat"]
        if event["type"] == "action":
            if seat != state.current_seat():
                raise ReplayMismatch(index, f"event {index}: seat {seat} acted out of turn")
            state.apply(event["action"])
        elif event["type"] == "infraction":
            state.infraction(seat, event["reason"])
        else:
            state.crash(seat, event["reason"])
    except (IllegalActionError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, ReplayMismatch):
            raise
        raise ReplayMismatch(index, f"event {index}: the engine refuses it: {error}") from None


def _compare_events(recorded: list[Any], replayed: list[JSON], *, start: int, upto: int) -> int:
    """Compare events `start` to `upto`; the engine must have made exactly `upto`."""
    for index in range(start, min(upto, len(replayed))):
        if recorded[index] != replayed[index]:
            message = f"event {index} differs: recorded {recorded[index]}, engine {replayed[index]}"
            raise ReplayMismatch(index, message)
    if len(replayed) != upto:
        raise ReplayMismatch(
            min(upto, len(replayed)),
            f"the engine made {len(replayed)} events where the replay has {upto}",
        )
    return upto
