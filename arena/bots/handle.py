"""The one interface the match runner uses to talk to any bot.

A built-in bot answers in-process; a bot file answers from its own child process
(see `sandbox.process_bot`), jailed or not. Both are `BotHandle`s, so the runner
never knows the difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from arena.engine import JSON


@dataclass(slots=True)
class Reply:
    """What came back for one decision; read-only by convention.

    Exactly one of `action`, `infraction` and `crash` is set: a JSON object the
    bot returned (still to be checked against the legal actions), the reason a
    reply was malformed or late, or the reason the bot can play no more. (Not a
    frozen dataclass: one is made per decision, and freezing makes that 5x
    slower.)
    """

    action: JSON | None = None
    infraction: str | None = None
    crash: str | None = None
    seconds: float = 0.0


class BotHandle(Protocol):
    """A bot taking part in one match.

    Between its decisions a bot does not run: a handle whose bot lives in a
    process of its own keeps it paused outside `decide`.
    """

    name: str

    def start(self) -> str | None:
        """Get ready to play; return a crash reason if the bot cannot start."""

    def decide(self, observation: JSON, timeout: float) -> Reply:
        """Answer one observation within `timeout` seconds of the runner's clock."""

    def close(self) -> str:
        """End the bot for good and return its log (stderr), possibly cut.

        Safe to call more than once: later calls return the same log.
        """
