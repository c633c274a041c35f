"""With Redis or PostgreSQL down the site answers a clear 503 with Retry-After, never a 500.

Real services: a Redis server of the test's own, stopped in the middle of the
test, and a PostgreSQL database of its own whose connections are terminated.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import psycopg
import pytest
import redis
from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractUser
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import close_old_connections, connections
from django.test import Client
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

import tavolo_site.cache
from accounts.services import user_api_token_get
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.broker import match_queue_depth
from matches.models import Match
from qualification.services import bot_versions_recover
from tavolo_site.outages import RETRY_AFTER_SECONDS
from tests.platform.api.conftest import GOOD_SOURCE
from tests.platform.integration.conftest import RedisServer

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SITE_HEALTH_CHECKS = django_settings.DATABASES["default"]["CONN_HEALTH_CHECKS"]
"""The site's own setting, read before a fixture points the connection at a test database."""


@pytest.fixture
def redis_cache(own_redis: RedisServer, settings: Settings) -> RedisServer:
    """The site's caches on the test's own Redis, configured as production configures them."""
    options = {"socket_connect_timeout": 1, "socket_timeout": 2}
    settings.CACHES = {
        "default": {
            "BACKEND": "tavolo_site.cache.FallbackRedisCache",
            "LOCATION": own_redis.url,
            "OPTIONS": options,
        },
        "strict": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": own_redis.url,
            "OPTIONS": options,
        },
    }
    return own_redis


def assert_outage_json(answer: object) -> None:
    assert answer.status_code == 503, answer.content  # type: ignore[attr-defined]
    assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)  # type: ignore[index]
    assert "try again" in answer.json()["detail"]  # type: ignore[attr-defined]


def assert_outage_page(answer: object) -> None:
    assert answer.status_code == 503  # type: ignore[attr-defined]
    assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)  # type: ignore[index]
    assert answer["Content-Type"].startswith("text/html")  # type: ignore[index]
    assert "Try again shortly" in answer.content.decode()  # type: ignore[attr-defined]


def test_with_redis_down_logins_fail_closed_with_503_and_reads_still_answer(
    alice: AbstractUser, ladders: dict[str, Ladder], redis_cache: RedisServer, redis_broker: str
) -> None:
    anonymous = APIClient(raise_request_exception=False)
    credentials = {"username": "alice", "password": "alice-password-1"}
    assert anonymous.post("/api/token/", credentials).status_code == 200
    redis_cache.stop()

    assert_outage_json(anonymous.post("/api/token/", credentials))
    browser = Client(raise_request_exception=False)
    assert_outage_page(browser.post("/accounts/login/", credentials))
    assert_outage_page(browser.post("/admin/login/", credentials))
    # Reads count against a budget kept in this process meanwhile: they still answer.
    assert anonymous.get("/api/ladders/").status_code == 200
    assert browser.get("/ladders/").status_code == 200
    assert browser.get("/ladders/mia-classic-4/").status_code == 200


def test_with_redis_down_an_upload_is_still_taken(
    alice: AbstractUser, ladders: dict[str, Ladder], redis_cache: RedisServer, redis_broker: str
) -> None:
    alice_api = APIClient(raise_request_exception=False)
    alice_api.credentials(HTTP_AUTHORIZATION=f"Token {user_api_token_get(user=alice)}")
    redis_cache.stop()

    upload = SimpleUploadedFile("liar.py", GOOD_SOURCE.encode(), content_type="text/x-python")
    body = {"name": "liar", "ladder": "mia-classic-4", "file": upload}
    answer = alice_api.post("/api/bots/", body, format="multipart")
    # The upload throttle counted in this process's memory; the broker could not take the
    # qualification, which the recovery task sends again once it can: nothing is lost.
    assert answer.status_code == 201, answer.content
    assert BotVersion.objects.get(bot__owner=alice, bot__name="liar").status == "pending"


def test_an_upload_made_with_redis_down_is_sent_to_qualification_by_the_next_recovery(
    alice: AbstractUser, ladders: dict[str, Ladder], redis_cache: RedisServer, redis_broker: str
) -> None:
    alice_api = APIClient(raise_request_exception=False)
    alice_api.credentials(HTTP_AUTHORIZATION=f"Token {user_api_token_get(user=alice)}")
    redis_cache.stop()
    upload = SimpleUploadedFile("liar.py", GOOD_SOURCE.encode(), content_type="text/x-python")
    body = {"name": "liar", "ladder": "mia-classic-4", "file": upload}
    assert alice_api.post("/api/bots/", body, format="multipart").status_code == 201
    version = BotVersion.objects.get(bot__owner=alice, bot__name="liar")

    redis_cache.start()
    # Beat's next recovery round, at most TAVOLO_RECOVER_SECONDS after the broker is back.
    assert bot_versions_recover() == [version.pk]
    assert match_queue_depth() == 1, "its qualification waits in the broker for a worker"


def test_with_redis_down_a_challenge_is_still_taken(
    alice: AbstractUser,
    ladders: dict[str, Ladder],
    accepted_bot: Callable[..., Bot],
    redis_cache: RedisServer,
    redis_broker: str,
) -> None:
    bot = accepted_bot(owner=alice, ladder=ladders["muggins-2"], name="domino")
    alice_api = APIClient(raise_request_exception=False)
    alice_api.credentials(HTTP_AUTHORIZATION=f"Token {user_api_token_get(user=alice)}")
    redis_cache.stop()

    house = Bot.objects.get(ladder=bot.ladder, name="builtin:strong")
    body = {"bot": bot.pk, "opponents": [house.pk]}
    answer = alice_api.post("/api/challenges/", body, format="json")
    # Queued in the database; the recovery task sends it once the broker is back.
    assert answer.status_code == 201, answer.content
    assert Match.objects.get(pk=answer.json()["id"]).status == Match.Status.QUEUED


def _terminate(database: str, *, allow_connections: bool) -> None:
    """Terminate every connection to `database`; with allow_connections False, refuse new ones."""
    with psycopg.connect(**{**_admin_parameters(), "dbname": "test"}, autocommit=True) as admin:
        admin.execute(
            f'ALTER DATABASE "{database}" WITH ALLOW_CONNECTIONS {str(allow_connections).lower()}'
        )
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        )


def _admin_parameters() -> dict[str, object]:
    dsn = connections["default"].settings_dict
    return {"host": dsn["HOST"], "port": dsn["PORT"], "user": dsn["USER"]}


@pytest.fixture
def kept_connections() -> Iterator[str]:
    """The default connection kept across requests with the site's own health checks."""
    wrapper = connections["default"]
    wrapper.settings_dict["CONN_MAX_AGE"] = 60
    wrapper.settings_dict["CONN_HEALTH_CHECKS"] = SITE_HEALTH_CHECKS
    wrapper.close()  # the next connection is made with these settings
    name = wrapper.settings_dict["NAME"]
    yield name
    _terminate(name, allow_connections=True)


def request_as_a_server_would(client: Client, path: str) -> object:
    """A request after the start-of-request housekeeping a WSGI server's request runs
    (Django's test client leaves it out)."""
    close_old_connections()
    return client.get(path)


def test_terminated_database_connections_are_replaced_not_a_500(
    ladders: dict[str, Ladder], kept_connections: str
) -> None:
    client = APIClient(raise_request_exception=False)
    assert request_as_a_server_would(client, "/api/ladders/").status_code == 200  # type: ignore[attr-defined]
    kept = connections["default"].connection
    _terminate(kept_connections, allow_connections=True)
    assert request_as_a_server_would(client, "/api/ladders/").status_code == 200  # type: ignore[attr-defined]
    assert connections["default"].connection is not kept, "a new connection replaced it"


def test_with_the_database_down_the_api_and_pages_answer_503_then_recover(
    ladders: dict[str, Ladder], kept_connections: str, settings: Settings
) -> None:
    settings.TAVOLO_PAGE_CACHE_SECONDS = 0  # a page kept from before would still be served
    client = Client(raise_request_exception=False)
    assert request_as_a_server_would(client, "/ladders/").status_code == 200  # type: ignore[attr-defined]
    _terminate(kept_connections, allow_connections=False)

    assert_outage_json(request_as_a_server_would(client, "/api/ladders/"))
    assert_outage_page(request_as_a_server_would(client, "/ladders/"))

    _terminate(kept_connections, allow_connections=True)
    assert request_as_a_server_would(client, "/ladders/").status_code == 200  # type: ignore[attr-defined]


def test_the_cache_uses_redis_again_once_it_is_back(
    redis_cache: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tavolo_site.cache, "RETRY_SECONDS", 0.5)
    redis_cache.stop()
    cache = caches["default"]
    cache.set("figures", "kept in memory")
    assert cache.get("figures") == "kept in memory"
    redis_cache.start()
    cache.set("figures", "still in memory")  # Redis is tried again only after RETRY_SECONDS
    assert redis.Redis.from_url(redis_cache.url).keys("*") == []
    time.sleep(0.6)
    cache.set("figures", "in Redis")
    assert cache.get("figures") == "in Redis"
    assert redis.Redis.from_url(redis_cache.url).keys("*"), "written to Redis"
