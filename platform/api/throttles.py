"""Scoped throttles on the costly writes: uploads and challenges.

Only POSTs count, so reading one's bots and challenges is never throttled.
Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under the scope's name.
"""

from __future__ import annotations

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
