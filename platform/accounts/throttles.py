"""Request budgets: costly writes per user, logins and sign-ups per address, anonymous reads.

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under each scope's
name. The site's forms count against the same budgets (`throttle_refusal`), so
neither the API nor the forms are a way around the other; the budgets live
here in the accounts app so that both delivery layers ask the same one.

A client is known by `accounts.addresses.client_address`, which believes
``X-Forwarded-For`` only from ``TAVOLO_TRUSTED_PROXIES``. Budgets are kept in
the cache, which falls back to each process's memory while Redis is down
(`tavolo_site.cache`); password guesses are counted in the strict cache
instead, so that while Redis is down a login is refused with a 503 rather than
allowed without a count.
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from accounts.addresses import client_address

if TYPE_CHECKING:  # DRF's views read the default throttles, this module, as they are defined
    from rest_framework.views import APIView


class WriteThrottle(UserRateThrottle):
    """A per-user rate on the writes of a view (per address for anonymous clients)."""

    def get_ident(self, request: Request) -> str:
        return client_address(request)

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class UploadThrottle(WriteThrottle):
    scope = "uploads"


class ChallengeThrottle(WriteThrottle):
    scope = "challenges"


class AddressThrottle(WriteThrottle):
    """Writes counted per client address, signed in or not."""

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginThrottle(AddressThrottle):
    """Password attempts per client address, counted where every process sees them."""

    scope = "logins"

    def __init__(self) -> None:
        self.cache = caches["strict"]
        super().__init__()


class SignupThrottle(AddressThrottle):
    """New accounts per client address: new accounts are no way around per-user budgets."""

    scope = "signups"


class AnonymousReadThrottle(SimpleRateThrottle):
    """Reads by clients that are not signed in, per address: API and pages share one budget."""

    scope = "reads"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.method not in SAFE_METHODS or signed_in(request):
            return None
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def signed_in(request: HttpRequest | Request) -> bool:
    """Whether the request comes from a signed-in user.

    A page request without a session cookie is anonymous, and its session is
    not read: reading it would make the answer vary by cookie for every
    visitor, and keep shared caches from keeping it. An API request is asked
    of DRF, which knows tokens too.
    """
    if not isinstance(request, Request) and settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    return bool(request.user.is_authenticated)


def throttle_wait(throttle: type[SimpleRateThrottle], request: HttpRequest) -> int | None:
    """For a form or a page: None if it may go on (it is counted), else the seconds to wait."""
    gate = throttle()
    # DRF's throttles read only .user, .method and .META, which a Django request has too.
    if gate.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return ceil(gate.wait() or 0)


def throttle_refusal(throttle: type[SimpleRateThrottle], request: HttpRequest) -> str | None:
    """For a form's POST: None if it may go on (it is counted), else why it may not."""
    wait = throttle_wait(throttle, request)
    return None if wait is None else f"too many {throttle.scope}: try again in {wait} seconds"
