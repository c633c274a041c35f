"""Every request gets an id: in the X-Request-ID answer header and in its log lines."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from django.test import Client

from arena.logs import ContextFilter, JsonFormatter, log_fields
from tavolo_site.request_id import RequestIdFilter


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """What the site logs meanwhile, as the JSON lines of TAVOLO_LOG_FORMAT=json."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.addFilter(ContextFilter())
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logging.getLogger().addHandler(handler)
    yield buffer
    logging.getLogger().removeHandler(handler)


def test_a_request_without_an_id_gets_a_new_one(client: Client, db: None) -> None:
    first = client.get("/")["X-Request-ID"]
    second = client.get("/")["X-Request-ID"]
    assert len(first) == 32
    assert first != second


def test_a_plain_id_from_the_client_is_kept(client: Client, db: None) -> None:
    answer = client.get("/", headers={"X-Request-ID": "proxy-1234.5:a_b"})
    assert answer["X-Request-ID"] == "proxy-1234.5:a_b"


@pytest.mark.parametrize("offered", ["", "x" * 129, "a b", "line\nbreak", "<script>"])
def test_an_unusable_id_is_replaced(client: Client, db: None, offered: str) -> None:
    answer = client.get("/", headers={"X-Request-ID": offered})
    assert answer["X-Request-ID"] != offered
    assert len(answer["X-Request-ID"]) == 32


def test_the_log_lines_of_a_request_carry_its_id(
    client: Client, db: None, json_log: io.StringIO
) -> None:
    answer = client.get("/no-such-page/", headers={"X-Request-ID": "req-42"})
    assert answer.status_code == 404
    lines = [json.loads(line) for line in json_log.getvalue().splitlines()]
    not_found = [line for line in lines if line["logger"] == "django.request"]
    assert not_found, lines
    assert {line["request_id"] for line in not_found} == {"req-42"}
    access = [line for line in lines if line["logger"] == "tavolo.access"]
    assert [(line["request_id"], line["path"], line["status"]) for line in access] == [
        ("req-42", "/no-such-page/", 404)
    ]
    assert access[0]["message"].startswith("GET /no-such-page/ 404 in ")
    assert "request_id" not in log_fields()
