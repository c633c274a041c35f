"""One logging set-up for the `tavolo` command, the web site and the workers.

Lines are human-readable by default; with ``TAVOLO_LOG_FORMAT=json`` each line
is one JSON object (time, level, logger, message, and the fields below), for a
log collector to read. `log_context` binds fields such as a match id (while a
worker plays the match) or a request id (while the site answers the request) to
every line logged inside it, by any code, in the same thread or task: a context
variable, so threads started inside do not inherit it.

Only the standard library's logging: the platform's settings hand
`logging_config` to Django, which applies it in the web server, the workers and
``tavolo standalone``; the command line applies it with `logging_setup`.
"""

from __future__ import annotations

import json
import logging
import logging.config
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

LOG_FORMATS = ("text", "json")
"""The values of ``TAVOLO_LOG_FORMAT``."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(context)s: %(message)s"

NO_FIELDS: Mapping[str, object] = MappingProxyType({})
_fields: ContextVar[Mapping[str, object]] = ContextVar("tavolo_log_fields", default=NO_FIELDS)

STANDARD_ATTRIBUTES = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "context",
}
"""What every log record has; anything else on a record was passed in ``extra=``."""


def log_fields() -> Mapping[str, object]:
    """The fields bound here and now."""
    return _fields.get()


@contextmanager
def log_context(**fields: object) -> Iterator[None]:
    """Add `fields` to every line logged inside the block."""
    token = _fields.set({**_fields.get(), **fields})
    try:
        yield
    finally:
        _fields.reset(token)


class ContextFilter(logging.Filter):
    """Copy the bound fields onto each record, and a ``context`` text for the text format."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = log_fields()
        for name, value in fields.items():
            setattr(record, name, value)
        record.context = "".join(f" [{name}={value}]" for name, value in fields.items())
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, bound and extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(
            (name, value)
            for name, value in record.__dict__.items()
            if name not in STANDARD_ATTRIBUTES and not name.startswith("_")
        )
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


def logging_config(*, level: str = "INFO", log_format: str = "text") -> dict[str, Any]:
    """The `logging.config.dictConfig` of every Tavolo process: one handler on stderr."""
    if log_format not in LOG_FORMATS:
        raise ValueError(
            f"TAVOLO_LOG_FORMAT={log_format!r}: choose one of {', '.join(LOG_FORMATS)}"
        )
    formatter = (
        {"()": f"{__name__}.JsonFormatter"} if log_format == "json" else {"format": TEXT_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": f"{__name__}.ContextFilter"}},
        "formatters": {"tavolo": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["context"],
                "formatter": "tavolo",
                "level": level,
            }
        },
        "root": {"handlers": ["console"], "level": level},
    }


def logging_setup(*, level: str = "WARNING") -> None:
    """Apply `logging_config` in a process without Django, in the format the environment asks."""
    log_format = os.environ.get("TAVOLO_LOG_FORMAT", "text")
    logging.config.dictConfig(logging_config(level=level, log_format=log_format))
