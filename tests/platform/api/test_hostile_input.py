"""Bad bodies are clear 4xx answers, never a 500: deep nesting, huge bodies, wrong shapes."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from api.parsers import MAX_JSON_DEPTH, json_depth


@pytest.mark.parametrize(
    ("body", "depth"),
    [
        (b"{}", 1),
        (b'{"a": [1, {"b": []}]}', 4),
        (b'"[[[[[["', 0),  # brackets inside a string are text
        (b'["\\"[[[", {"x": "]]]"}]', 2),  # so are escaped quotes and closing brackets
        (b"12", 0),
    ],
)
def test_json_depth_counts_only_brackets_outside_strings(body: bytes, depth: int) -> None:
    assert json_depth(body) == depth


def test_a_deeply_nested_body_is_a_400_that_says_why(anonymous: APIClient, db: None) -> None:
    body = "[" * 10_000 + "]" * 10_000
    answer = anonymous.post("/api/token/", body, content_type="application/json")
    assert answer.status_code == 400
    assert f"at most {MAX_JSON_DEPTH}" in answer.json()["detail"]


def test_an_unclosed_nest_is_a_400_too(anonymous: APIClient, db: None) -> None:
    answer = anonymous.post("/api/token/", "[" * 10_000, content_type="application/json")
    assert answer.status_code == 400


def test_nesting_up_to_the_limit_is_parsed(anonymous: APIClient, db: None) -> None:
    nested: object = "x"
    for _ in range(MAX_JSON_DEPTH - 1):
        nested = [nested]
    body = json.dumps({"username": "nobody", "password": "x", "extra": nested})
    answer = anonymous.post("/api/token/", body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "wrong user name or password"


def test_a_json_body_over_the_size_limit_is_a_413_unparsed(
    anonymous: APIClient, db: None, settings: object
) -> None:
    body = json.dumps({"username": "x", "password": "y" * (2 * 1024 * 1024)})
    answer = anonymous.post("/api/token/", body, content_type="application/json")
    assert answer.status_code == 413


@pytest.mark.parametrize("body", ["[1, 2]", '"text"', "null", "{not json"])
def test_a_token_request_of_the_wrong_shape_is_a_400(
    anonymous: APIClient, db: None, body: str
) -> None:
    answer = anonymous.post("/api/token/", body, content_type="application/json")
    assert answer.status_code == 400
