"""Play one match among bot handles and record it.

The runner is where the platform's rules meet the bots: it asks each bot in
turn, keeps its clock, and turns late, malformed or illegal replies into the
engine's `infraction` and dead bots into its `crash`. The engine never sees a
bot; a bot never sees the engine's state, only its observation.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from time import perf_counter
from typing import Any

from arena.bots.handle import Answer, BotHandle, Fault
from arena.engine import JSON, Game, IllegalActionError, Outcome, State
from arena.replay import build_replay
from arena.units import seconds_text

MAX_REASONS_KEPT = 20
"""Infraction reasons kept per seat for display; the replay keeps every one."""

MAX_LOG_ENTRY_CHARS = 64 * 1024
"""Characters of a seat's log kept decision by decision (the first ones; the
whole log, `SeatRecord.log`, keeps the last ones)."""


@dataclass(frozen=True)
class TimeControl:
    """How long a bot may think: the same defaults locally and on the server.

    Each decision may take `decision_seconds`; time beyond that is taken from a
    per-match bank of `bank_seconds`. A reply is late once both are spent.
    """

    decision_seconds: float = 1.0
    bank_seconds: float = 10.0


DEFAULT_TIME_CONTROL = TimeControl()


INFRACTION_KINDS = (
    ("late", "late"),
    ("illegal action:", "illegal"),
    ("malformed", "malformed"),
    ("act raised", "raised"),
    ("unsolicited", "unsolicited"),
)
"""The first words of an infraction's reason, and the kind they name."""


@dataclass(frozen=True, slots=True)
class Infraction:
    """Why one reply was an infraction, and which of the seat's decisions it was (from 1)."""

    reason: str
    decision: int

    @property
    def kind(self) -> str:
        """What went wrong in a word: late, illegal, malformed, raised or unsolicited."""
        return next(
            (kind for words, kind in INFRACTION_KINDS if self.reason.startswith(words)), "other"
        )

    @property
    def detail(self) -> str:
        """The reason without the words that name its kind: ``no reply within 1 s``."""
        if self.kind == "raised":
            return self.reason
        return self.reason.partition(":")[2].strip() or self.reason

    def __str__(self) -> str:
        return f"{self.reason} (decision {self.decision})"


@dataclass(slots=True)
class SeatRecord:
    """One bot's part in a finished match."""

    name: str
    decisions: int = 0
    seconds: float = 0.0
    infractions: int = 0
    infraction_reasons: list[Infraction] = field(default_factory=list)
    """The first `MAX_REASONS_KEPT` infractions; `infractions` counts them all."""
    crashed: bool = False
    crash_reason: str | None = None
    log: str = ""
    log_entries: list[JSON] = field(default_factory=list)
    """What the bot printed while deciding, decision by decision:
    ``{"index": the decision's event index, "text": ...}``, in order. Like
    `log`, for the bot's owner only."""


@dataclass
class MatchRecord:
    """The outcome of one match: result, per-seat records and the replay."""

    game: str
    seed: int
    outcome: Outcome
    seats: list[SeatRecord]
    replay: JSON
    decisions: int
    seconds: float

    @property
    def result(self) -> JSON:
        """The outcome as the replay's ``result`` dict records it."""
        result: JSON = self.replay["result"]
        return result


def new_seed() -> int:
    """A fresh secret 128-bit match seed."""
    return secrets.randbits(128)


def play_match(
    game: Game,
    bots: Sequence[BotHandle],
    *,
    seed: int | None = None,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    on_progress: Callable[[list[JSON]], None] | None = None,
) -> MatchRecord:
    """Play `game` with `bots[i]` in seat i until the match is over.

    `on_progress`, if given, is called with the events so far each time a bot
    is about to be asked for a decision (for watching a match live); it must
    not change them and should return quickly. Every bot is closed before this
    returns, whatever happened.
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.name} is set up for {game.players} players, got {len(bots)} bots")
    if seed is None:
        seed = new_seed()
    started_at = datetime.now(UTC)
    clock_started = perf_counter()
    state = game.new_state(seed)
    seats = [SeatRecord(name=bot.name) for bot in bots]
    try:
        _start_bots(state, bots, seats)
        decisions = _play(state, bots, seats, time_control, on_progress)
    finally:
        for bot, record in zip(bots, seats, strict=True):
            log = bot.close()
            record.log = record.log or log
    seconds = perf_counter() - clock_started
    outcome = state.result()
    replay = build_replay(
        game=game,
        bot_names=[bot.name for bot in bots],
        seed=seed,
        events=state.events,
        result=outcome.to_json(),
        started_at=started_at,
        seconds=seconds,
        time_control={
            "decision_seconds": time_control.decision_seconds,
            "bank_seconds": time_control.bank_seconds,
        },
    )
    return MatchRecord(
        game=game.name,
        seed=seed,
        outcome=outcome,
        seats=seats,
        replay=replay,
        decisions=decisions,
        seconds=seconds,
    )


def _start_bots(state: State, bots: Sequence[BotHandle], seats: list[SeatRecord]) -> None:
    for seat, bot in enumerate(bots):
        reason = bot.start()
        if reason is not None:
            _record_crash(state, bot, seats[seat], seat, f"could not start: {reason}")


def _play(
    state: State,
    bots: Sequence[BotHandle],
    seats: list[SeatRecord],
    clock: TimeControl,
    on_progress: Callable[[list[JSON]], None] | None = None,
) -> int:
    """The decision loop; returns how many actions were played.

    This is the hot path of every match: the plain case (a legal answer in
    time) stays inline, and each seat's `time` dict is reused until its bank
    changes. The observation is the engine's own (`arena.engine`): the bot
    gets a copy with its seat's ``time`` added. A handle whose log only grows
    with a `Fault` (`BotHandle.logs_only_with_faults`) is asked for it only then.
    Every bot, in-process or not, is asked through its handle's `decide`.
    """
    allowance = clock.decision_seconds
    banks = [clock.bank_seconds] * len(bots)
    clocks = [{"decision_seconds": allowance, "bank_seconds": bank} for bank in banks]
    timeouts = [allowance + bank for bank in banks]
    decides = [bot.decide for bot in bots]
    logs_every_decision = [not getattr(bot, "logs_only_with_faults", False) for bot in bots]
    kept = [0] * len(bots)
    current_seat, legal_actions = state.current_seat, state.legal_actions
    observe, apply = state.observation, state.apply
    forced = 0
    while (seat := current_seat()) is not None:
        legal = legal_actions()
        if len(legal) == 1:
            apply(legal[0])
            forced += 1
            continue
        observation = observe(seat).copy()
        observation["time"] = clocks[seat]
        if on_progress is not None:
            on_progress(state.events)
        asked = perf_counter()
        answer = decides[seat](observation, timeouts[seat])
        seconds = perf_counter() - asked
        record = seats[seat]
        if logs_every_decision[seat]:
            _keep_log(record, bots[seat].take_log(), len(state.events), kept, seat)
        record.decisions += 1
        record.seconds += seconds
        late = seconds > allowance and _spend_bank(banks, clocks, timeouts, seat, seconds, clock)
        if not late and type(answer) is not Fault:
            try:
                apply(answer)
                continue
            except IllegalActionError:
                if _played_as_listed(apply, legal, answer):
                    continue
        if not logs_every_decision[seat]:
            _keep_log(record, bots[seat].take_log(), len(state.events), kept, seat)
        _penalise(state, bots[seat], record, seat, answer, seconds, late=late)
    return forced + sum(record.decisions for record in seats)


def _keep_log(record: SeatRecord, printed: str, index: int, kept: list[int], seat: int) -> None:
    """Record what the seat's bot printed while deciding, at the event `index`
    of its decision, while its first `MAX_LOG_ENTRY_CHARS` last."""
    if printed and kept[seat] < MAX_LOG_ENTRY_CHARS:
        printed = printed[: MAX_LOG_ENTRY_CHARS - kept[seat]]
        kept[seat] += len(printed)
        record.log_entries.append({"index": index, "text": printed})


def _spend_bank(
    banks: list[float],
    clocks: list[JSON],
    timeouts: list[float],
    seat: int,
    seconds: float,
    clock: TimeControl,
) -> bool:
    """Take the time past the decision's allowance from the seat's bank, and
    bring its ``time`` dict and its timeout up to date; True if that overdrew
    the bank (the reply is late). The bank never goes below zero."""
    bank = banks[seat] - (seconds - clock.decision_seconds)
    banks[seat] = max(0.0, bank)
    clocks[seat] = {"decision_seconds": clock.decision_seconds, "bank_seconds": banks[seat]}
    timeouts[seat] = clock.decision_seconds + banks[seat]
    return bank < 0


def _played_as_listed(apply: Callable[[JSON], None], legal: list[JSON], answer: Any) -> bool:
    """Apply the listed legal action equal to `answer`, if there is one: a JSON
    reply may spell a value differently (42.0 for 42) from what the engine takes."""
    try:
        listed = legal[legal.index(answer)]
    except ValueError:
        return False
    try:
        apply(listed)
    except IllegalActionError:
        return False
    return True


def _penalise(
    state: State,
    bot: BotHandle,
    record: SeatRecord,
    seat: int,
    answer: Answer,
    seconds: float,
    *,
    late: bool,
) -> None:
    """Apply the penalty the rules give for an answer that is not a legal action in time."""
    if type(answer) is Fault and answer.crash:
        _record_crash(state, bot, record, seat, answer.reason)
        return
    if type(answer) is Fault:
        reason = answer.reason
    elif late:
        reason = f"late: {seconds_text(seconds)} with the time bank spent"
    else:
        reason = f"illegal action: {_clip(answer)}"
    record.infractions += 1
    if len(record.infraction_reasons) < MAX_REASONS_KEPT:
        record.infraction_reasons.append(Infraction(reason, record.decisions))
    state.infraction(seat, reason)


def _record_crash(state: State, bot: BotHandle, record: SeatRecord, seat: int, reason: str) -> None:
    record.crashed = True
    record.crash_reason = reason
    record.log = bot.close()
    state.crash(seat, reason)


def _clip(value: object, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
