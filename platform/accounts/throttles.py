"""Scoped throttles on the costly or sensitive writes: uploads, challenges, logins.

Only POSTs count, so reading one's bots and challenges is never throttled.
Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under the scope's name.
The site's forms count against the same per-user rates (`throttle_refusal`), so
neither the API nor the forms are a way around the other. They are a budget
per user (or, for logins, per client address), kept here in the accounts app so
that both delivery layers ask the same one.
"""

from __future__ import annotations

from math import ceil

from django.http import HttpRequest
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView


class WriteThrottle(UserRateThrottle):
    """A per-user rate on the writes of a view; reads pass freely."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class UploadThrottle(WriteThrottle):
    scope = "uploads"


class ChallengeThrottle(WriteThrottle):
    scope = "challenges"


class LoginThrottle(WriteThrottle):
    """Password attempts, per client address: a brake on guessing passwords."""

    scope = "logins"


def throttle_refusal(throttle: type[WriteThrottle], request: HttpRequest) -> str | None:
    """For a form's POST: None if it may go on (it is counted), else why it may not."""
    gate = throttle()
    # DRF's throttles read only .user, .method and .META, which a Django request has too.
    if gate.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return f"too many {throttle.scope}: try again in {ceil(gate.wait() or 0)} seconds"
