"""Built-in bots, run in the runner's own process: trusted and fast."""

from __future__ import annotations

import traceback
from collections.abc import Callable

from arena.bots.handle import Answer, Fault
from arena.engine import JSON

Act = Callable[[JSON], JSON]


class InProcessBot:
    """A `BotHandle` around a trusted `act` function.

    There is no process to pause, and a built-in bot cannot be interrupted, so
    the runner only measures its time; an exception is an infraction like any
    other bot's, and its traceback goes to the log.
    """

    logs_only_with_faults = True
    """Its log is the tracebacks of `act`, each returned as a Fault."""

    def __init__(self, name: str, act: Act) -> None:
        self.name = name
        self.act = act
        self._log: list[str] = []
        self._taken = 0

    def start(self) -> str | None:
        return None

    def decide(self, observation: JSON, timeout: float) -> Answer:
        try:
            return self.act(observation)
        except Exception as error:
            return self._fault(error)

    def _fault(self, error: Exception) -> Fault:
        self._log.append("".join(traceback.format_exception(error)))
        return Fault(f"act raised {type(error).__name__}: {error}")

    def take_log(self) -> str:
        if self._taken == len(self._log):
            return ""
        text = "".join(self._log[self._taken :])
        self._taken = len(self._log)
        return text

    def close(self) -> str:
        return "".join(self._log)
