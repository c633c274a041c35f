"""Login brakes that hold: per address (forwarded only by trusted proxies), per account, on
every login path, and on sign-ups."""

from __future__ import annotations

import time
from ipaddress import ip_network

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client, RequestFactory
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from accounts.addresses import client_address
from accounts.throttles import LoginThrottle

WRONG = {"username": "alice", "password": "not-her-password"}
RIGHT = {"username": "alice", "password": "alice-password-1"}


@pytest.mark.parametrize(
    ("proxies", "remote", "forwarded", "client"),
    [
        ([], "203.0.113.9", "198.51.100.1", "203.0.113.9"),  # no proxy trusted: the peer
        (["127.0.0.1"], "203.0.113.9", "198.51.100.1", "203.0.113.9"),  # not from the proxy
        (["127.0.0.1"], "127.0.0.1", "198.51.100.1", "198.51.100.1"),
        # The client's own entry stands left of what nginx appended: never believed.
        (["127.0.0.1"], "127.0.0.1", "6.6.6.6, 198.51.100.1", "198.51.100.1"),
        (
            ["127.0.0.1", "10.0.0.0/8"],
            "127.0.0.1",
            "6.6.6.6, 198.51.100.1, 10.1.2.3",
            "198.51.100.1",
        ),
        (["127.0.0.1"], "127.0.0.1", "", "127.0.0.1"),
    ],
)
def test_the_client_address_believes_forwarded_headers_only_from_trusted_proxies(
    settings: Settings, proxies: list[str], remote: str, forwarded: str, client: str
) -> None:
    settings.TAVOLO_TRUSTED_PROXIES = [ip_network(proxy) for proxy in proxies]
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == client


@pytest.fixture
def three_logins_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LoginThrottle.THROTTLE_RATES, "logins", "3/minute")


def test_a_forged_forwarded_address_per_guess_does_not_escape_the_login_throttle(
    alice: AbstractUser, three_logins_a_minute: None
) -> None:
    anonymous = APIClient()
    answers = [
        anonymous.post("/api/token/", WRONG, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code
        for n in range(5)
    ]
    assert answers == [400, 400, 400, 429, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_budget(
    alice: AbstractUser, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    settings.TAVOLO_TRUSTED_PROXIES = [ip_network("127.0.0.1")]
    monkeypatch.setitem(LoginThrottle.THROTTLE_RATES, "logins", "2/minute")
    anonymous = APIClient()

    def guess(client: str) -> int:
        return anonymous.post("/api/token/", WRONG, HTTP_X_FORWARDED_FOR=client).status_code

    assert [guess("198.51.100.1") for _ in range(3)] == [400, 400, 429]
    assert guess("198.51.100.2") == 400, "another client behind the proxy is not blocked"


def test_an_account_takes_no_more_guesses_from_any_address_until_the_window_ends(
    alice: AbstractUser, settings: Settings
) -> None:
    settings.TAVOLO_LOGIN_FAILURES_PER_ACCOUNT = 3
    for n in range(3):
        client = APIClient(REMOTE_ADDR=f"198.51.100.{n}")
        assert client.post("/api/token/", WRONG).status_code == 400
    locked = APIClient(REMOTE_ADDR="198.51.100.77").post("/api/token/", RIGHT)
    assert locked.status_code == 429
    assert "too many wrong passwords for this account" in locked.json()["detail"]
    assert int(locked["Retry-After"]) <= settings.TAVOLO_LOGIN_LOCK_SECONDS
    page = Client(REMOTE_ADDR="198.51.100.78").post("/accounts/login/", RIGHT)
    assert page.status_code == 429, "the log-in page shares the account's lock"
    other = APIClient(REMOTE_ADDR="198.51.100.79").post(
        "/api/token/", {"username": "bob", "password": "x"}
    )
    assert other.status_code == 400, "only the guessed account is locked"


def test_the_owner_logs_in_again_once_the_window_has_passed(
    alice: AbstractUser, settings: Settings
) -> None:
    settings.TAVOLO_LOGIN_FAILURES_PER_ACCOUNT = 2
    settings.TAVOLO_LOGIN_LOCK_SECONDS = 2
    client = APIClient()
    # Start at the beginning of a window, so that both guesses fall in the same one.
    time.sleep(2 - time.time() % 2)
    assert [client.post("/api/token/", WRONG).status_code for _ in range(3)] == [400, 400, 429]
    time.sleep(2 - time.time() % 2 + 0.05)
    assert client.post("/api/token/", RIGHT).status_code == 200


def test_admin_login_guesses_are_throttled(
    alice: AbstractUser, three_logins_a_minute: None
) -> None:
    browser = Client()
    answers = [
        browser.post("/admin/login/", {**WRONG, "next": "/admin/"}).status_code for _ in range(4)
    ]
    assert answers == [200, 200, 200, 429]
    refused = browser.post("/admin/login/", {**RIGHT, "next": "/admin/"})
    assert refused.status_code == 429
    assert "too many logins" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert "_auth_user_id" not in browser.session


def test_admin_login_failures_count_against_the_account(
    alice: AbstractUser, settings: Settings
) -> None:
    settings.TAVOLO_LOGIN_FAILURES_PER_ACCOUNT = 2
    for n in range(2):
        Client(REMOTE_ADDR=f"198.51.100.{n}").post("/admin/login/", WRONG)
    assert APIClient().post("/api/token/", RIGHT).status_code == 429


def test_a_burst_of_sign_ups_from_one_address_is_refused(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(LoginThrottle.THROTTLE_RATES, "signups", "2/hour")
    browser = Client()

    def sign_up(n: int) -> int:
        password = "a-long-password-9"
        form = {"username": f"new{n}", "password1": password, "password2": password}
        answer = browser.post("/signup/", form)
        browser.logout()
        return answer.status_code

    assert [sign_up(n) for n in range(3)] == [302, 302, 429]
    refused = Client().post("/signup/", {"username": "x", "password1": "a", "password2": "a"})
    assert "too many signups" in refused.content.decode()
