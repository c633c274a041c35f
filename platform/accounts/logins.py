"""Password guesses: a budget per client address and a lock per account.

Every way to log in with a password (the API's token endpoint, the log-in
page, the admin's) asks `login_refusal` before the password is checked. The
per-address budget (`LoginThrottle`) stops one client guessing many accounts;
the per-account lock stops many addresses guessing one account: after
``TAVOLO_LOGIN_FAILURES_PER_ACCOUNT`` failed attempts at a user name within
a window of ``TAVOLO_LOGIN_LOCK_SECONDS``, that name takes no attempt until the
window ends, whatever the address; then its owner logs in as before. Failures
are counted from Django's ``user_login_failed`` signal, so every path counts.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

from accounts.throttles import LoginThrottle, throttle_wait


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


def _failures_key(username: str, window: int) -> str:
    digest = hashlib.sha256(username.casefold().encode()).hexdigest()[:32]
    return f"tavolo:login-failures:{window}:{digest}"


def login_failure_count(*, username: str) -> int:
    """Failed attempts at `username` in the current window."""
    window, _ = _window()
    return int(caches["strict"].get(_failures_key(username, window), 0))


def login_failure_record(*, username: str) -> None:
    """Count one failed attempt at `username` (in the strict cache, shared by every process)."""
    window, left = _window()
    key = _failures_key(username, window)
    cache = caches["strict"]
    cache.add(key, 0, timeout=left + 1)
    cache.incr(key)


def login_refusal(request: HttpRequest, username: str) -> Refusal | None:
    """None if this attempt may check its password (it is counted), else why not."""
    wait = throttle_wait(LoginThrottle, request)
    if wait is not None:
        return Refusal("too many logins from your address", wait)
    if login_failure_count(username=username) >= settings.TAVOLO_LOGIN_FAILURES_PER_ACCOUNT:
        _, left = _window()
        return Refusal(
            "too many wrong passwords for this account: it takes no attempt for now", left
        )
    return None


def on_login_failed(sender: Any, credentials: dict[str, Any], **kwargs: Any) -> None:
    """``user_login_failed``: count the attempt against the user name it named."""
    username = credentials.get("username")
    if username:
        login_failure_record(username=str(username))
