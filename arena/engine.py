"""The contract between the match runner and a game engine.

Every game (Mia, Muggins) provides a `Game`: a frozen rules object built from a
player count, a variant and options, that makes new `State`s from a seed. The
runner drives a `State` only through the methods below, so a new game needs no
change to the runner, the replays or the command line.

Events are plain JSON-ready dicts with a ``"type"``. Three types are *inputs*,
decided outside the engine, and everything else is a consequence the engine
derives from them and from its seeded chance:

- ``{"type": "action", "seat": s, "action": {...}}``: `State.apply`
- ``{"type": "infraction", "seat": s, "reason": "..."}``: `State.infraction`
- ``{"type": "crash", "seat": s, "reason": "..."}``: `State.crash`

A replay is the full event list; re-simulating means feeding the input events
to a fresh state made from the same seed and comparing the two lists.
"""

from __future__ import annotations

from typing import Any, Protocol

JSON = dict[str, Any]

INPUT_EVENT_TYPES = frozenset({"action", "infraction", "crash"})


class RulesError(ValueError):
    """A game, variant, option or player count that the rules do not allow."""


class IllegalActionError(ValueError):
    """An action that is not one of the current seat's legal actions."""


class State(Protocol):
    """One match in progress: mutable, driven by the runner."""

    events: list[JSON]
    """Every event so far, inputs and consequences, with the whole truth."""

    def current_seat(self) -> int | None:
        """The seat that must decide now, or None once the match is over."""

    def legal_actions(self) -> list[JSON]:
        """The current seat's legal actions, complete dicts, in a fixed order."""

    def observation(self, seat: int) -> JSON:
        """What `seat` may know now, as the bot API's observation (no time fields).

        Like everything a state hands out, it may be shared and kept current by
        the state: read it now, and copy what must outlast the next action.
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

    def result(self) -> JSON:
        """The final result: ``places`` (1 = first, per seat) plus game totals."""


class Game(Protocol):
    """Frozen rules for one kind of match; makes new states."""

    name: str
    players: int

    @property
    def rules(self) -> JSON:
        """The resolved rules (variant and every option) as a JSON-ready dict."""

    def new_state(self, seed: int) -> State:
        """A fresh match whose every chance event comes from `seed`."""
