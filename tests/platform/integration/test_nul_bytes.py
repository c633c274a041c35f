"""A NUL byte anywhere a client writes (path, query, form field) is a 400 on PostgreSQL too.

PostgreSQL cannot compare a NUL byte with a text column: before the site refused
them, ``GET /users/%00/`` raised `psycopg.DataError` there, a 500.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.test import Client

pytestmark = [pytest.mark.postgres]

GETS = [
    "/users/%00/",
    "/users/alice%00/",
    "/matches/?bot=%00",
    "/matches/?%00=1",
    "/tournaments/x/live.json?stamp=%00",
    "/api/tournaments/?status=%00",
    "/api/matches/?ladder=%00",
    "/api/bots/?owner=al%00ice",
]

POSTS = [
    ("/accounts/login/", {"username": "alice\x00", "password": "alice-password-1"}),
    ("/signup/", {"username": "\x00", "password1": "x", "password2": "x"}),
    ("/api/token/", {"username": "alice", "password": "alice\x00password-1"}),
]


def test_a_nul_byte_in_a_path_query_or_form_field_is_a_bad_request(
    database: None, alice: object
) -> None:
    client = Client()
    answers = {path: client.get(path) for path in GETS}
    for path, fields in POSTS:
        answers[f"POST {path}"] = client.post(path, fields)
        answers[f"POST {path} as a form"] = client.post(
            path, urlencode(fields), content_type="application/x-www-form-urlencoded"
        )
    assert {request: answer.status_code for request, answer in answers.items()} == dict.fromkeys(
        answers, 400
    )
    assert all("NUL byte" in answer.content.decode() for answer in answers.values())
