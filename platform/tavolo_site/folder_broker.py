"""The standalone site's message broker: kombu's filesystem transport, safe across processes.

The web server, the worker and the scheduler are separate processes that share
one folder of messages. kombu's own filesystem transport creates a message's
file under its final name and only then writes it, so a consumer listing the
folder meanwhile could take the empty file: a JSONDecodeError that ended the
Celery worker ("Unrecoverable error") and lost the message. Here a message is
written whole under a name no consumer looks at, then renamed into place
(`os.replace`, atomic within one filesystem), so a consumer sees all of it or
nothing. A consumer claims a message by renaming it too, within the folder, so
of two consumers exactly one gets it. A message that cannot be decoded all the
same (a power cut before the disk had it) is set aside and logged instead of
stopping the worker.

Its URL is ``tavolo-folder://``, the broker when ``REDIS_URL`` is unset
(tavolo_site.settings); the Celery app (tavolo_site.celery) imports this module,
which registers that name with kombu.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

WRITING_SUFFIX = ".writing"
"""A message being written; kombu's consumers take only names ending in ``.<queue>.msg``."""
TAKEN_SUFFIX = ".taken"
"""A message a consumer has claimed and is reading."""
UNREADABLE_SUFFIX = ".unreadable"
"""A message that could not be decoded, kept for an operator to look at."""


def write_whole(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that no reader ever sees a part of it."""
    partial = path.with_name(f"{path.name}{WRITING_SUFFIX}")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


class Channel(filesystem.Channel):
    """kombu's filesystem channel whose messages are written and claimed atomically."""

    # Named as kombu's filesystem channel names them, not as its base channel does.
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        # kombu's name: the machine's monotonic clock first, which every process shares, so
        # that messages are read in the order they were sent; then the queue.
        name = f"{int(time.monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_whole(Path(self.data_folder_out) / name, dumps(payload).encode())  # type: ignore[no-untyped-call]
        except OSError as error:
            raise ChannelError(f"Cannot add the message {name!r}") from error

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        wanted = f"{queue}.msg"
        folder = Path(self.data_folder_in)
        for name in sorted(os.listdir(folder)):
            if name.partition(".")[2] != wanted:
                continue
            taken = folder / f"{name}.{os.getpid()}{TAKEN_SUFFIX}"
            try:
                os.rename(folder / name, taken)  # of consumers at once, one succeeds
            except FileNotFoundError:
                continue
            try:
                payload = taken.read_bytes()
            except OSError as error:
                raise ChannelError(f"Cannot read the message {name!r}") from error
            try:
                message = loads(payload)  # type: ignore[no-untyped-call]
            except ValueError:  # not JSON, or not UTF-8
                os.replace(taken, folder / f"{name}{UNREADABLE_SUFFIX}")
                logger.error("the message %s could not be decoded: set aside", name)
                continue
            taken.unlink()
            return message
        raise Empty()


class Transport(filesystem.Transport):
    """kombu's filesystem transport with the atomic `Channel`."""

    Channel = Channel


TRANSPORT_ALIASES["tavolo-folder"] = f"{__name__}:Transport"
