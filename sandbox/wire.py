"""The runner's side of the wire format: the lines it writes and how it reads replies.

The format is specified in docs/wire-protocol.md; `sandbox/host.py` is the
other side. Parsing never raises: anything a bot can send becomes an action
object or a `Fault`.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from arena.api import API_VERSION
from arena.bots.handle import Answer, Fault
from arena.engine import JSON

REASON_CHARS = 200
"""Text quoted from a bot inside an infraction reason is cut to this length."""


_encoder = json.JSONEncoder(separators=(",", ":"))


def encode(message: JSON) -> bytes:
    return _encoder.encode(message).encode() + b"\n"


def load_line(
    source: bytes,
    filename: str,
    rlimits: dict[str, int],
    cpu: int | None = None,
    hold_cpu: bool = False,
) -> bytes:
    """The host's first line: the bot file, the limits to set before running it,
    the CPU to run on (the runner's; None for any), and whether the bot is then
    kept from moving off it (jailed: the host's own filter denies sched_setaffinity)."""
    return encode(
        {
            "type": "load",
            "source_base64": base64.b64encode(source).decode("ascii"),
            "filename": filename,
            "rlimits": rlimits,
            "cpu": cpu,
            "hold_cpu": hold_cpu,
        }
    )


class FinalValues:
    """The JSON of values the engines hand out and never change, encoded once each.

    By the engine contract (`arena.engine`, "Who owns what"), legal-action
    lists, events and the rules dict never change once handed out, and engines
    share them: a history event goes to every seat, an action list or the rules
    to every decision. So a value seen before is known by its identity. The
    cache keeps a reference to each value, so that its id cannot be reused
    while cached, and starts over when full.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._texts: dict[int, tuple[Any, int, str]] = {}

    def text(self, value: list[Any] | dict[str, Any]) -> str:
        known = self._texts.get(id(value))
        if known is not None and known[0] is value and known[1] == len(value):
            return known[2]
        if len(self._texts) >= self._size:
            self._texts.clear()
        text = _encoder.encode(value)
        self._texts[id(value)] = (value, len(value), text)
        return text


_final_values = FinalValues(16384)
FINAL_FIELDS = ("rules", "legal_actions")
"""Observation fields whose values are final by the engine contract, when lists or dicts."""


def observation_line(observation: JSON, history_start: int) -> bytes:
    """An observation whose history carries only the events from `history_start` on.

    What the engines share and never change (`FinalValues`) is encoded once,
    the rest of the observation anew each time.
    """
    message = dict(observation)
    history = message.pop("history", [])[history_start:]
    final = {key: message.pop(key) for key in FINAL_FIELDS if key in message}
    fields = [_encoder.encode(message)[1:-1]] if message else []
    for key, value in final.items():
        known = isinstance(value, list | dict)
        fields.append(f'"{key}":{_final_values.text(value) if known else _encoder.encode(value)}')
    events = ",".join(
        _final_values.text(event) if isinstance(event, dict) else _encoder.encode(event)
        for event in history
    )
    fields.append(f'"history":[{events}],"history_start":{history_start}')
    return f"{{{','.join(fields)}}}\n".encode()


def _quote(value: Any) -> str:
    """A short, safe rendering of a value a bot sent (never its repr: it may nest deeply)."""
    if isinstance(value, bool | int | float) or value is None:
        return json.dumps(value)[:REASON_CHARS]
    if not isinstance(value, str):
        return f"a JSON {type(value).__name__}"
    return value if len(value) <= REASON_CHARS else value[:REASON_CHARS] + "..."


def _decode(line: bytes) -> Any:
    """The JSON value of a line, or a `Fault` with the reason it is not one."""
    try:
        return json.loads(line.decode("utf-8"))
    except RecursionError:
        return Fault("malformed reply: JSON nested too deeply")
    except ValueError as error:  # bad JSON or UTF-8, or an int past the digit limit
        return Fault(f"malformed reply: {_quote(str(error))}")


def parse_ready(line: bytes) -> str | None:
    """None if `line` is the host's ready message, else the reason the bot cannot start."""
    message = _decode(line)
    if not isinstance(message, dict) or message.get("type") != "ready":
        return f"expected a ready message, got {_quote(line.decode('utf-8', 'replace'))}"
    if message.get("api_version") != API_VERSION:
        return f"bot speaks API version {_quote(message.get('api_version'))}, not {API_VERSION}"
    return None


def parse_reply(line: bytes) -> Answer:
    """The answer a line carries: an action object (not yet checked for legality)
    or the `Fault` that makes it an infraction."""
    message = _decode(line)
    if isinstance(message, Fault):
        return message
    if not isinstance(message, dict):
        return Fault("malformed reply: not a JSON object")
    kind = message.get("type")
    if kind == "action":
        action = message.get("action")
        if not isinstance(action, dict):
            return Fault(f"malformed action: {_quote(action)}, not an object")
        return action
    if kind == "error":
        return Fault(f"act raised {_quote(message.get('error'))}")
    return Fault(f"malformed reply: unknown message type {_quote(kind)}")
