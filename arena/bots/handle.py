"""The one interface the match runner uses to talk to any bot.

A built-in bot answers in-process; a bot file answers from its own child process
(see `sandbox.process_bot`), jailed or not. Both are `BotHandle`s, so the runner
never knows the difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, final

from arena.engine import JSON


@final
@dataclass(frozen=True, slots=True)
class Fault:
    """Why a decision brought no action: a malformed or late reply (an
    infraction), or, with `crash`, a bot that can play no more.

    Final, so that ``type(answer) is Fault`` (cheaper than `isinstance` in the
    runner's loop) tells it."""

    reason: str
    crash: bool = False


Answer = Fault | Any
"""What `decide` returns: a `Fault`, or else whatever the bot answered, which the
runner still checks against the rules (it should be an action dict)."""


class BotHandle(Protocol):
    """A bot taking part in one match.

    Between its decisions a bot does not run: a handle whose bot lives in a
    process of its own keeps it paused outside `decide`.

    A handle whose log grows only when `decide` returns a `Fault` (an
    in-process bot's log is the tracebacks of its `act`) may say so with a
    true ``logs_only_with_faults`` attribute: the runner then asks for its log
    after a Fault only, rather than after every decision.
    """

    name: str

    def start(self) -> str | None:
        """Get ready to play; return a crash reason if the bot cannot start."""

    def decide(self, observation: JSON, timeout: float) -> Answer:
        """Answer one observation; give up with a late `Fault` after `timeout` seconds.

        The runner times every call on its own clock, so a handle never reports
        how long its bot took.
        """

    def take_log(self) -> str:
        """What the bot wrote to its log (stderr) since the last call, or since it
        started: after a decision, what it printed while deciding."""

    def close(self) -> str:
        """End the bot for good and return its log (stderr), possibly cut.

        Safe to call more than once: later calls return the same log.
        """
