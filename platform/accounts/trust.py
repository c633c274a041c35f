"""Clients an account trusts: devices and addresses that logged in to it before.

A brake on one account's wrong passwords must not let anyone lock its owner
out. Following OWASP's "device cookies", a successful log-in gives the browser
(or any client that keeps cookies) a signed cookie naming the account, and
marks the address it came from as trusted by the account; both last
``TAVOLO_LOGIN_TRUST_DAYS``. `accounts.logins` counts the wrong passwords of
each trusted device and each trusted address apart from those of everyone else,
so a guesser who locks the account for unknown clients leaves its owner's
devices and addresses free to log in.

A device's cookie names one account, the last that logged in on it. A
successful log-in records the grant in the request's environment
(`login_trust_grant`); `DeviceCookieMiddleware` hands the cookie out with
whatever answer the log-in made, so every way to log in shares it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse

from accounts.addresses import client_address
from accounts.usernames import username_key

DEVICE_COOKIE = "tavolo_device"
SALT = "tavolo.accounts.device"
GRANTED = "tavolo.device_cookie"
"""The request environment's key for the cookie a log-in granted (a WSGI extension key)."""


class Standing(NamedTuple):
    """Who an attempt at an account comes from: its failures are counted under `key`."""

    key: str
    trusted: bool


UNKNOWN = Standing("anyone", trusted=False)


def _trust_seconds() -> int:
    return settings.TAVOLO_LOGIN_TRUST_DAYS * 24 * 3600


def _address_digest(request: HttpRequest) -> str:
    return hashlib.sha256(client_address(request).encode()).hexdigest()[:32]


def _trusted_address_key(account: str, request: HttpRequest) -> str:
    return f"tavolo:login-trusted-address:{account}:{_address_digest(request)}"


def _device_nonce(request: HttpRequest, account: str) -> str | None:
    """The nonce of this device's cookie if it is genuine, recent and names `account`."""
    cookie = request.COOKIES.get(DEVICE_COOKIE)
    if not cookie:
        return None
    try:
        granted = signing.loads(cookie, salt=SALT, max_age=_trust_seconds())
    except signing.BadSignature:
        return None
    if not isinstance(granted, dict) or granted.get("account") != account:
        return None
    return str(granted.get("nonce", "")) or None


def login_standings(request: HttpRequest | None, username: str) -> list[Standing]:
    """The standings an attempt at `username` may be made under, the most trusted first:
    this device's, this address's (each if the account trusts it), and everyone's."""
    if request is None:
        return [UNKNOWN]
    account = username_key(username)
    standings = []
    nonce = _device_nonce(request, account)
    if nonce is not None:
        standings.append(Standing(f"device:{nonce}", trusted=True))
    if caches["strict"].get(_trusted_address_key(account, request)):
        standings.append(Standing(f"address:{_address_digest(request)}", trusted=True))
    return [*standings, UNKNOWN]


def login_trust_grant(request: HttpRequest, username: str) -> None:
    """After a successful log-in: the account trusts this address, and this device gets
    a cookie (handed out by `DeviceCookieMiddleware`)."""
    account = username_key(username)
    caches["strict"].set(_trusted_address_key(account, request), True, timeout=_trust_seconds())
    granted = {"account": account, "nonce": secrets.token_urlsafe(16)}
    request.META[GRANTED] = signing.dumps(granted, salt=SALT)


def on_logged_in(sender: Any, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any) -> None:
    """``user_logged_in``: a session log-in (the log-in page, the admin's, a sign-up)."""
    login_trust_grant(request, user.get_username())


class DeviceCookieMiddleware:
    """Hands out the device cookie a log-in granted during the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        cookie = request.META.get(GRANTED)
        if cookie:
            response.set_cookie(
                DEVICE_COOKIE,
                cookie,
                max_age=_trust_seconds(),
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
