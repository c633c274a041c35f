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
    source: bytes, filename: str, rlimits: dict[str, int], cpu: int | None = None
) -> bytes:
    """The host's first line: the bot file, the limits to set before running it,
    and the CPU to run on (the runner's; None for any)."""
    return encode(
        {
            "type": "load",
            "source_base64": base64.b64encode(source).decode("ascii"),
            "filename": filename,
            "rlimits": rlimits,
            "cpu": cpu,
        }
    )


class SharedLists:
    """The JSON of lists the engines share and never change, encoded once each.

    Engines hand out precomputed lists of legal actions (the engine contract:
    nobody changes them), so a list seen before is known by its identity. The
    cache keeps a reference to each list, so that its id cannot be reused
    while cached, and starts over when full.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._texts: dict[int, tuple[list[Any], int, str]] = {}

    def text(self, value: list[Any]) -> str:
        known = self._texts.get(id(value))
        if known is not None and known[0] is value and known[1] == len(value):
            return known[2]
        if len(self._texts) >= self._size:
            self._texts.clear()
        text = _encoder.encode(value)
        self._texts[id(value)] = (value, len(value), text)
        return text


_legal_actions = SharedLists(4096)


def observation_line(observation: JSON, history_start: int) -> bytes:
    """An observation whose history carries only the events from `history_start` on."""
    message = dict(observation)
    message["history"] = observation.get("history", [])[history_start:]
    message["history_start"] = history_start
    legal = message.pop("legal_actions", None)
    text = _encoder.encode(message)
    if isinstance(legal, list):
        text = f'{text[:-1]},"legal_actions":{_legal_actions.text(legal)}}}'
    elif legal is not None:
        return encode({**message, "legal_actions": legal})
    return text.encode() + b"\n"


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
