"""The OpenAPI schema: it renders, and the API keeps to it.

The schemathesis test generates requests from the schema for every operation,
as alice with her token, and checks each answer: never a 5xx, and status codes,
content types and bodies as the schema documents them. One check is left out:
"schema-valid data is accepted". The schema cannot say that a bot file must
compile or that a ladder must exist, so such requests rightly get a 400.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import schemathesis
from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.core.signals import request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.test import APIClient
from schemathesis.checks import positive_data_acceptance

from accounts.services import user_api_token_get
from bots.models import Bot
from matches.models import Match

EXAMPLES_PER_OPERATION = 20


def test_the_schema_renders_as_openapi_3(anonymous: APIClient, db: None) -> None:
    answer = anonymous.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    schema = answer.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/bots/{bot_id}/versions/" in schema["paths"]
    assert "/api/token/" in schema["paths"]
    change = schema["components"]["schemas"]["RatingChange"]["properties"]
    assert "earlier results" in change["earlier"]["description"]


@pytest.fixture
def wsgi_keeps_the_test_transaction() -> Iterator[None]:
    """Keep the test's database connection open across requests, as Django's test client does."""
    request_started.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)


@pytest.fixture
def api_schema(wsgi_keeps_the_test_transaction: None) -> schemathesis.BaseSchema:
    from tavolo_site.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture
def populated(
    alice: AbstractUser,
    accepted_bot: Callable[..., Bot],
    muggins_ladder,
    house: Bot,
    play_match: Callable[..., Match],
) -> str:
    """A site with a bot of alice's and a played match; alice's token."""
    bot = accepted_bot(owner=alice, ladder=muggins_ladder, name="domino")
    play_match(muggins_ladder, bot, house)
    return user_api_token_get(user=alice)


def test_the_api_keeps_to_its_schema(api_schema: schemathesis.BaseSchema, populated: str) -> None:
    headers = {"Authorization": f"Token {populated}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def keeps_to_the_schema(case: schemathesis.Case) -> None:
            cache.clear()  # throttles would answer 429 to everything after a while
            case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])

        keeps_to_the_schema()
