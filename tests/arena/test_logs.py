"""The one logging set-up: text or JSON lines, with the fields bound by `log_context`."""

from __future__ import annotations

import io
import json
import logging
import logging.config
from collections.abc import Callable, Iterator

import pytest

from arena.cli import main
from arena.logs import log_context, log_fields, logging_config


@pytest.fixture
def logged() -> Iterator[Callable[[str], io.StringIO]]:
    """Apply `logging_config` in a format, writing to a buffer; restore logging afterwards."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level

    def configure(log_format: str) -> io.StringIO:
        buffer = io.StringIO()
        config = logging_config(level="INFO", log_format=log_format)
        config["handlers"]["console"]["stream"] = buffer
        logging.config.dictConfig(config)
        return buffer

    yield configure
    root.handlers[:], root.level = saved


def test_json_lines_carry_the_bound_fields_and_the_extras(logged) -> None:
    buffer = logged("json")
    with log_context(match_id=7):
        logging.getLogger("tavolo.test").info("played %s", "well", extra={"decisions": 12})
    logging.getLogger("tavolo.test").warning("after")
    first, second = (json.loads(line) for line in buffer.getvalue().splitlines())
    assert first["message"] == "played well"
    assert first["level"] == "INFO"
    assert first["logger"] == "tavolo.test"
    assert first["match_id"] == 7
    assert first["decisions"] == 12
    assert first["time"].endswith("+00:00")
    assert "match_id" not in second


def test_json_lines_keep_the_traceback(logged) -> None:
    buffer = logged("json")
    try:
        raise RuntimeError("broken")
    except RuntimeError:
        logging.getLogger("tavolo.test").exception("failed")
    entry = json.loads(buffer.getvalue())
    assert "RuntimeError: broken" in entry["exception"]


def test_text_lines_show_the_bound_fields(logged) -> None:
    buffer = logged("text")
    with log_context(request_id="abc"):
        logging.getLogger("tavolo.test").info("answered")
    assert buffer.getvalue().rstrip().endswith("INFO tavolo.test [request_id=abc]: answered")


def test_contexts_nest_and_unwind() -> None:
    with log_context(match_id=1):
        with log_context(seat=2):
            assert log_fields() == {"match_id": 1, "seat": 2}
        assert log_fields() == {"match_id": 1}
    assert log_fields() == {}


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="TAVOLO_LOG_FORMAT='xml'"):
        logging_config(log_format="xml")


def test_the_command_line_refuses_an_unknown_format_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAVOLO_LOG_FORMAT", "xml")
    with pytest.raises(SystemExit, match=r"^tavolo: TAVOLO_LOG_FORMAT='xml': choose one of"):
        main()
