"""Password guesses: a budget per client address, and locks per account and per address
that its owner's devices are free of.

Every way to log in with a password (the API's token endpoint, the log-in
page, the admin's) normalises the user name once (`accounts.usernames`) and
asks `login_refusal` with it before the password is checked:

- every attempt counts against its address's budget (`LoginThrottle`);
- wrong passwords are counted per account under the attempt's standing
  (`accounts.trust`): a device or an address that logged in to the account
  before has a count of its own, every other client shares one. Once a
  standing has ``TAVOLO_LOGIN_FAILURES_PER_ACCOUNT`` failures in a window of
  ``TAVOLO_LOGIN_LOCK_SECONDS``, the account takes no more attempts under it
  until the window ends; an attempt is made under the most trusted of its
  standings that is not locked. A guesser who locks the account for unknown
  clients leaves its owner's devices and addresses free to log in;
- wrong passwords are counted per address too, over all accounts: an address
  with ``TAVOLO_LOGIN_FAILURES_PER_ADDRESS`` of them in a window makes no
  attempt at an account that does not trust it until the window ends.

Failures are counted from Django's ``user_login_failed`` signal, so every path
counts, in the strict cache, which every process shares.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

from accounts.addresses import client_address
from accounts.throttles import LoginThrottle, throttle_wait
from accounts.trust import Standing, login_standings
from accounts.usernames import username_key


class Refusal(NamedTuple):
    """Why an attempt is refused, and the seconds until one may be made."""

    reason: str
    wait: int

    def __str__(self) -> str:
        return f"{self.reason}: try again in {self.wait} seconds"


def _window() -> tuple[int, int]:
    """The current window's number and the seconds left in it."""
    length = settings.TAVOLO_LOGIN_LOCK_SECONDS
    now = time.time()
    return int(now // length), max(1, int(length - now % length))


def _account_failures_key(username: str, standing: Standing) -> str:
    window, _ = _window()
    return f"tavolo:login-failures:{window}:{username_key(username)}:{standing.key}"


def _address_failures_key(request: HttpRequest) -> str:
    window, _ = _window()
    return f"tavolo:login-failures-from:{window}:{client_address(request)}"


def _count(key: str) -> int:
    return int(caches["strict"].get(key, 0))


def _count_one(key: str) -> None:
    _, left = _window()
    cache = caches["strict"]
    cache.add(key, 0, timeout=left + 1)
    cache.incr(key)


def _standing(request: HttpRequest | None, username: str) -> Standing | None:
    """The most trusted standing of this attempt whose failures leave it open; None if
    every one is locked."""
    limit = settings.TAVOLO_LOGIN_FAILURES_PER_ACCOUNT
    for standing in login_standings(request, username):
        if _count(_account_failures_key(username, standing)) < limit:
            return standing
    return None


def login_refusal(request: HttpRequest, username: str) -> Refusal | None:
    """None if this attempt at the (normalised) `username` may check its password (it is
    counted), else why not."""
    wait = throttle_wait(LoginThrottle, request)
    if wait is not None:
        return Refusal("too many logins from your address", wait)
    _, left = _window()
    standing = _standing(request, username)
    if standing is None:
        return Refusal(
            "too many wrong passwords for this account: it takes no attempt from this client "
            "for now (a device or address that logged in to it before still may)",
            left,
        )
    limit = settings.TAVOLO_LOGIN_FAILURES_PER_ADDRESS
    if not standing.trusted and _count(_address_failures_key(request)) >= limit:
        return Refusal("too many wrong passwords from your address", left)
    return None


def on_login_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    """``user_login_failed``: count the attempt against the account it named, under its
    standing, and against its address."""
    username = credentials.get("username")
    if not username:
        return
    standing = _standing(request, username)
    if standing is not None:
        _count_one(_account_failures_key(username, standing))
    if request is not None:
        _count_one(_address_failures_key(request))
