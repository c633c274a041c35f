"""The contract between a game engine and everything that drives it.

Every game (Mia, Muggins) is one `Game` class, listed in `arena.games.GAMES`.
The runner, the replays, the command line and the platform use a game only
through the names below, so a new game needs no change to any of them.

**Game.** A frozen rules object: a player count, a named variant (one rule set,
a string such as ``"classic"``) and options, checked once when it is built
(`RulesError` names what is allowed). Its class says which player counts and
variants exist (`min_players`, `max_players`, `variants`). `rules` is the
resolved rules as a JSON-ready dict: ``game``, ``players``, ``variant`` and
every option with its value. A replay records it, and the same dict gives the
same game back (`arena.games.game_from_rules`).

**State.** One match in progress, made by `Game.new_state(seed)`: every chance
event (a die, a deal, a draw) comes from that seed, so the same seed and the
same inputs give the same match. A state changes only through `apply`,
`infraction` and `crash`.

**Event.** A JSON-ready dict with a ``"type"``. ``state.events`` is every event
so far, with the whole truth (dice under the cup, every hand). Three types are
*inputs*, decided outside the engine (`INPUT_EVENT_TYPES`):

- ``{"type": "action", "seat": s, "action": {...}}``: `State.apply`
- ``{"type": "infraction", "seat": s, "reason": "..."}``: `State.infraction`
- ``{"type": "crash", "seat": s, "reason": "..."}``: `State.crash`

Everything else is a consequence the engine derives from the inputs and its
seeded chance. A replay is the full event list; re-simulating feeds the input
events to a fresh state made from the same seed and compares the two lists.

**Observation.** What one seat may know now, as the bot API's dict
(docs/bot-api.md) without the ``time`` field, which the runner adds. It never
holds another seat's hidden dice or tiles. `legal_actions` is empty for every
seat but the current one.

**Outcome.** The result of a finished match: `Outcome`, with a round trip to
the ``result`` dict that replays and the platform store. Why it ended is a
member of the game's own `EndReason` enum (`Game.end_reasons`), as
python-chess's ``Termination``; the result dict keeps the final totals under
the game's `Game.scores_key`.

Who owns what
-------------
The state owns every object it hands out: the event dicts, the ``events`` and
``history`` lists, the rules dict, each observation dict and the lists and
dicts inside it, the legal-action lists and the action dicts in them. Engines
share these objects for speed (an action dict is one object for a whole
match; a seat's observation may be one dict kept current from call to call).
So a caller:

- must never mutate anything a state or a game hands out: to add a field
  (the runner's ``time``), copy first;
- may keep events, action dicts, legal-action lists and the rules dict as
  long as it likes: once handed out they never change (events are final;
  nothing appends to or edits a legal-action list or the rules after handing
  them out);
- must read an observation before the next `apply`, `infraction` or `crash`
  (it may be brought up to date in place), and copy what must outlast it.

**Identity of final values.** Because a legal-action list, an event or the
rules dict never changes once handed out, one with the same identity (and
still alive) has the same content. The wire (`sandbox.wire.FinalValues`)
relies on this: it encodes each once, however many seats and decisions it
goes to, and knows it again by ``id``, keeping a reference so that the id is
not reused. tests/arena/test_engine_contract.py checks it of both engines.

The runner turns a bot's late, malformed or illegal reply into `infraction`
and a dead bot into `crash`: the rules decide the penalty, the runner never
does, and the engine never sees a bot.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

JSON = dict[str, Any]

INPUT_EVENT_TYPES = frozenset({"action", "infraction", "crash"})


class RulesError(ValueError):
    """A game, variant, option or player count that the rules do not allow."""


class IllegalActionError(ValueError):
    """An action that is not one of the current seat's legal actions."""


class EndReason(enum.StrEnum):
    """Why a match ended. Each game subclasses it with its own members (`Game.end_reasons`);
    a member is a str equal to its value, the name the game's events and docs use."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match placed its seats.

    `places` is 1 for first, per seat (equal places are shared). `scores` are
    the game's final totals per seat, recorded in the result dict under
    `scores_key` (the game's `Game.scores_key`). `reason` says why the match
    ended, a member of the game's `EndReason`; the result dict does not carry
    it, so a replay's result stays as it always was.
    """

    places: tuple[int, ...]
    scores: tuple[int, ...]
    reason: EndReason
    scores_key: str = "scores"

    def to_json(self) -> JSON:
        """The result dict of a replay: ``places`` and the scores under `scores_key`."""
        return {"places": list(self.places), self.scores_key: list(self.scores)}

    @classmethod
    def from_json(cls, result: JSON, *, scores_key: str, reason: EndReason) -> Outcome:
        """The outcome a result dict records, its scores under `scores_key` (the game's
        `Game.scores_key`); the `reason` is not in the dict: give it."""
        return cls(
            places=tuple(result["places"]),
            scores=tuple(result.get(scores_key, ())),
            reason=reason,
            scores_key=scores_key,
        )


class State(Protocol):
    """One match in progress: mutable, driven by the runner."""

    events: list[JSON]
    """Every event so far, inputs and consequences, with the whole truth."""

    def current_seat(self) -> int | None:
        """The seat that must decide now, or None once the match is over."""

    def legal_actions(self) -> list[JSON]:
        """The current seat's legal actions, complete dicts, in a fixed order
        (never changed once handed out: see the module's contract)."""

    def observation(self, seat: int) -> JSON:
        """What `seat` may know now, as the bot API's observation (no ``time``).

        The state's own dict: read it before the state changes again and never
        mutate it; copy it to add a field.
        """

    def apply(self, action: JSON) -> None:
        """Play the current seat's action; raise IllegalActionError, changing
        nothing, if the rules do not take it."""

    def infraction(self, seat: int, reason: str) -> None:
        """Apply the rules' penalty for a malformed, illegal or late reply."""

    def crash(self, seat: int, reason: str) -> None:
        """Apply the rules' penalty for a bot whose process died."""

    def is_over(self) -> bool:
        """True once the match has ended (a winner, or a cap reached)."""

    def result(self) -> Outcome:
        """The outcome; ValueError while the match is not over."""


class Game(Protocol):
    """Frozen rules for one kind of match; makes new states."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    variants: ClassVar[tuple[str, ...]]
    """The named rule sets; the first is the default."""
    scores_key: ClassVar[str]
    """The result dict's key for the final totals per seat (`Outcome.scores_key`)."""
    end_reasons: ClassVar[type[EndReason]]
    """Why a match of the game can end (`Outcome.reason`)."""

    @property
    def players(self) -> int:
        """How many seats the match has."""

    @property
    def variant(self) -> str:
        """The rule set, one of `variants`."""

    @property
    def engine_version(self) -> str:
        """The version of the engines whose rules it plays (`arena.api.ENGINE_VERSIONS`)."""

    @property
    def rules(self) -> JSON:
        """The resolved rules (variant and every option) as a JSON-ready dict."""

    def new_state(self, seed: int) -> State:
        """A fresh match whose every chance event comes from `seed`."""
