"""The bot host: runs one bot file and answers the runner in JSON lines.

Runs as `python3 -I -S host.py`, inside the jail or not, and imports only the
standard library. The protocol is in docs/wire-protocol.md; in short:

1. the runner's first line is ``{"type": "load", "source_base64": ..., "filename": ...,
   "rlimits": {...}, "cpu": n}``; the host moves to CPU `n` (the runner's, if given)
   and sets the rlimits (before any bot code runs), imports
   the source as the module ``bot`` and answers ``{"type": "ready", "api_version": 1}``,
   or prints the traceback to stderr and exits with `EXIT_LOAD_FAILED`;
2. then each line is an observation whose ``history`` holds only the events from
   index ``history_start`` on; the host rebuilds the full list, calls
   ``act(observation)`` and answers ``{"type": "action", "action": ...}``, or
   ``{"type": "error", "error": "..."}`` if `act` raised or its result is not JSON.

The lines travel over a unix socket received on stdin (see
`take_protocol_socket`). The bot's own `print` and writes to file descriptor
1 go to stderr, and its stdin reads /dev/null: only the host speaks the
protocol.
"""

from __future__ import annotations

import _socket
import binascii
import contextlib
import json
import linecache
import os
import resource
import sys
import traceback
import types
from collections.abc import Callable
from importlib.util import decode_source
from typing import Any, BinaryIO

API_VERSION = 1
EXIT_LOAD_FAILED = 2
"""The bot file raised on import or defines no callable `act`."""
EXIT_OUT_OF_MEMORY = 3
"""The bot raised MemoryError: it broke its address-space limit."""
ERROR_TEXT_CHARS = 500
"""An error reply keeps this much of the exception's text."""
FD_BYTES = 4
READ_BUFFER_BYTES = 64 * 1024


class LoadError(Exception):
    """The bot file cannot be used."""


def take_protocol_socket() -> tuple[BinaryIO, int]:
    """Receive the protocol socket over stdin; then stdin reads /dev/null and stdout is stderr.

    The runner sends the socket as SCM_RIGHTS over a control socket on stdin,
    so that no wrapper process between runner and host holds it.
    """
    control = _socket.socket(fileno=0)
    _, ancillary, _, _ = control.recvmsg(1, _socket.CMSG_SPACE(FD_BYTES))
    control.close()
    (level, kind, data), *_ = ancillary
    if (level, kind) != (_socket.SOL_SOCKET, _socket.SCM_RIGHTS):
        raise RuntimeError("expected the protocol socket on stdin")
    protocol = int.from_bytes(data[:FD_BYTES], sys.byteorder)
    null = os.open(os.devnull, os.O_RDONLY)
    if null != 0:
        os.dup2(null, 0)
        os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(protocol, "rb", buffering=READ_BUFFER_BYTES), protocol


_encoder = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def encode(message: dict[str, Any]) -> bytes:
    """One protocol line; raises ValueError or TypeError for what JSON cannot hold."""
    return _encoder.encode(message).encode() + b"\n"


def send(protocol_out: int, line: bytes) -> None:
    """Write one protocol line whole."""
    while line:
        line = line[os.write(protocol_out, line) :]


def share_cpu(cpu: int | None) -> None:
    """Run on the runner's CPU, where handing a turn over is cheapest; best effort."""
    if cpu is None:
        return
    with contextlib.suppress(OSError, ValueError, TypeError):
        os.sched_setaffinity(0, {cpu})


def set_rlimits(rlimits: dict[str, int]) -> None:
    """Apply each limit as both soft and hard, so the bot can lower but never raise it."""
    for name, value in rlimits.items():
        resource.setrlimit(getattr(resource, name), (value, value))


def load_bot(source: bytes, filename: str) -> Callable[[dict[str, Any]], Any]:
    """Run the bot file as the module ``bot`` and return its `act`."""
    text = decode_source(source)
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    module = types.ModuleType("bot")
    module.__file__ = filename
    sys.modules["bot"] = module
    exec(compile(text, filename, "exec", dont_inherit=True), module.__dict__)
    act = getattr(module, "act", None)
    if not callable(act):
        raise LoadError(f"{filename} defines no callable act(observation)")
    return act


def describe(error: BaseException) -> str:
    """``Type: text``, cut to `ERROR_TEXT_CHARS`."""
    try:
        text = str(error)
    except Exception:
        text = "(unprintable)"
    return f"{type(error).__name__}: {text}"[:ERROR_TEXT_CHARS]


def answer(act: Callable[[dict[str, Any]], Any], observation: dict[str, Any]) -> bytes:
    """The reply line to one observation: the action, or the error that stopped it."""
    try:
        return encode({"type": "action", "action": act(observation)})
    except MemoryError:
        traceback.print_exc()
        os._exit(EXIT_OUT_OF_MEMORY)
    except Exception as error:
        traceback.print_exc()
        return encode({"type": "error", "error": describe(error)})


def serve(protocol_in: BinaryIO, protocol_out: int, act: Callable[[dict[str, Any]], Any]) -> None:
    """Answer observations until the runner closes stdin."""
    history: list[Any] = []
    for line in protocol_in:
        observation = json.loads(line.decode())
        start = observation.pop("history_start", 0)
        del history[start:]
        history.extend(observation["history"])
        observation["history"] = history
        reply = answer(act, observation)
        sys.stderr.flush()  # what the bot printed reaches its log before the reply
        send(protocol_out, reply)


def main() -> None:
    protocol_in, protocol_out = take_protocol_socket()
    load = json.loads(protocol_in.readline())
    share_cpu(load.get("cpu"))
    set_rlimits(load["rlimits"])
    try:
        act = load_bot(binascii.a2b_base64(load["source_base64"]), load["filename"])
    except MemoryError:
        traceback.print_exc()
        os._exit(EXIT_OUT_OF_MEMORY)
    except BaseException as error:
        if isinstance(error, LoadError):
            print(f"{type(error).__name__}: {error}", file=sys.stderr)
        else:
            traceback.print_exc()
        sys.stderr.flush()
        os._exit(EXIT_LOAD_FAILED)
    send(protocol_out, encode({"type": "ready", "api_version": API_VERSION}))
    serve(protocol_in, protocol_out, act)
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
