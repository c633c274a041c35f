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

FULLWIDTH_ALICE = "".join(chr(ord(letter) + 0xFEE0) for letter in "alice")
"""alice in fullwidth letters (U+FF41...), which NFKC reads as alice."""
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


def guessed_from_elsewhere(username: str, settings: Settings) -> None:
    """Wrong passwords for `username` from addresses it never saw, until it is locked to them."""
    for n in range(settings.TAVOLO_LOGIN_FAILURES_PER_ACCOUNT):
        guess = {"username": username, "password": "a-guess"}
        assert APIClient(REMOTE_ADDR=f"192.0.2.{n}").post("/api/token/", guess).status_code == 400
    refused = APIClient(REMOTE_ADDR="192.0.2.200").post("/api/token/", {**guess})
    assert refused.status_code == 429


def device_that_logged_in() -> Client:
    """alice's browser, which logged in to her account from its home address, then out."""
    laptop = Client(REMOTE_ADDR="203.0.113.5")
    assert laptop.post("/accounts/login/", RIGHT).status_code == 302
    device = laptop.cookies["tavolo_device"].value
    laptop.logout()  # which forgets every cookie: the device cookie is kept, as browsers do
    laptop.cookies["tavolo_device"] = device
    return laptop


@pytest.fixture
def three_failures_lock(settings: Settings) -> Settings:
    settings.TAVOLO_LOGIN_FAILURES_PER_ACCOUNT = 3
    return settings


@pytest.fixture
def staff_alice(alice: AbstractUser) -> AbstractUser:
    alice.is_staff = alice.is_superuser = True
    alice.save()
    return alice


@pytest.mark.parametrize(
    ("path", "welcome"),
    [("/accounts/login/", 302), ("/admin/login/", 302), ("/api/token/", 200)],
)
def test_a_device_that_logged_in_before_logs_in_while_guessers_are_locked_out(
    staff_alice: AbstractUser, three_failures_lock: Settings, path: str, welcome: int
) -> None:
    laptop = device_that_logged_in()
    guessed_from_elsewhere("alice", three_failures_lock)
    laptop.defaults["REMOTE_ADDR"] = "198.51.100.40"  # the laptop travelled: a new address
    assert laptop.post(path, RIGHT).status_code == welcome
    stranger = Client(REMOTE_ADDR="198.51.100.41")
    assert stranger.post(path, RIGHT).status_code == 429, "an unknown client stays locked out"


def test_an_address_that_logged_in_before_logs_in_without_a_cookie_while_guessers_are_locked_out(
    alice: AbstractUser, three_failures_lock: Settings
) -> None:
    assert APIClient(REMOTE_ADDR="203.0.113.6").post("/api/token/", RIGHT).status_code == 200
    guessed_from_elsewhere("alice", three_failures_lock)
    script = APIClient(REMOTE_ADDR="203.0.113.6")  # a script that keeps no cookie
    assert script.post("/api/token/", RIGHT).status_code == 200
    assert APIClient(REMOTE_ADDR="203.0.113.7").post("/api/token/", RIGHT).status_code == 429


def test_a_trusted_device_that_guesses_is_locked_out_on_its_own_count(
    alice: AbstractUser, three_failures_lock: Settings
) -> None:
    laptop = device_that_logged_in()
    laptop.defaults["REMOTE_ADDR"] = "198.51.100.40"
    assert [laptop.post("/api/token/", WRONG).status_code for _ in range(3)] == [400] * 3
    stranger = APIClient(REMOTE_ADDR="198.51.100.50")
    assert stranger.post("/api/token/", RIGHT).status_code == 200, "others are not locked"
    guessed_from_elsewhere("alice", three_failures_lock)
    assert laptop.post("/api/token/", RIGHT).status_code == 429, "its own count is spent"


def test_a_forged_device_cookie_is_no_cookie(
    alice: AbstractUser, three_failures_lock: Settings
) -> None:
    genuine = device_that_logged_in().cookies["tavolo_device"].value
    guessed_from_elsewhere("alice", three_failures_lock)
    forger = Client(REMOTE_ADDR="198.51.100.60")
    forger.cookies["tavolo_device"] = genuine[:-2] + ("AA" if genuine[-2:] != "AA" else "BB")
    assert forger.post("/accounts/login/", RIGHT).status_code == 429
    bob_cookie = Client(REMOTE_ADDR="198.51.100.61")
    bob_cookie.cookies["tavolo_device"] = genuine
    attempt = {"username": "bob", "password": "x"}
    assert bob_cookie.post("/api/token/", attempt).status_code == 400, "it names alice only"


def test_an_address_with_many_wrong_passwords_is_refused_at_accounts_that_do_not_trust_it(
    alice: AbstractUser, bob: AbstractUser, settings: Settings
) -> None:
    settings.TAVOLO_LOGIN_FAILURES_PER_ADDRESS = 4
    assert APIClient(REMOTE_ADDR="203.0.113.8").post("/api/token/", RIGHT).status_code == 200
    guesser = APIClient(REMOTE_ADDR="203.0.113.8")
    names = ["carol", "dave", "bob", "erin"]
    answers = [guesser.post("/api/token/", {"username": n, "password": "x"}) for n in names]
    assert [answer.status_code for answer in answers] == [400] * 4
    refused = guesser.post("/api/token/", {"username": "bob", "password": "bob-password-1"})
    assert refused.status_code == 429
    assert "wrong passwords from your address" in refused.json()["detail"]
    assert guesser.post("/api/token/", RIGHT).status_code == 200, "alice trusts the address"


@pytest.mark.parametrize("variant", ["alice ", " alice", FULLWIDTH_ALICE, "Alice"])
@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/", "/api/token/"])
def test_a_locked_account_is_locked_under_every_spelling_of_its_name(
    staff_alice: AbstractUser, three_failures_lock: Settings, variant: str, path: str
) -> None:
    guessed_from_elsewhere("alice", three_failures_lock)
    answer = Client(REMOTE_ADDR="198.51.100.70").post(
        path, {"username": variant, "password": "alice-password-1"}
    )
    assert answer.status_code == 429


def test_wrong_passwords_under_variants_of_a_name_count_against_the_account(
    alice: AbstractUser, three_failures_lock: Settings
) -> None:
    for n, variant in enumerate(["alice ", FULLWIDTH_ALICE, "ALICE"]):
        guess = {"username": variant, "password": "a-guess"}
        assert APIClient(REMOTE_ADDR=f"192.0.2.{n}").post("/api/token/", guess).status_code == 400
    assert APIClient(REMOTE_ADDR="192.0.2.99").post("/api/token/", RIGHT).status_code == 429


def test_the_same_name_spelled_with_fullwidth_letters_logs_in_on_every_path(
    alice: AbstractUser,
) -> None:
    fullwidth = {"username": FULLWIDTH_ALICE, "password": "alice-password-1"}
    assert APIClient().post("/api/token/", fullwidth).status_code == 200
    assert Client().post("/accounts/login/", fullwidth).status_code == 302
