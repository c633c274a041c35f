"""Errors from services become clear 4xx answers instead of 500s.

Services raise Django's `ValidationError` (a bad upload, a challenge that may
not be played) and selectors raise `Http404`. Here they become DRF errors with a
``detail`` message; a rate limit reached inside a service is a 429, and a body
over Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` a 413 (instead of Django's HTML 400).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.parsers import BodyTooLarge

RATE_LIMITED_CODE = "rate_limited"


class WrongCredentials(exceptions.APIException):
    """A user name and password that do not match an active account."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "wrong user name or password"
    default_code = "wrong_credentials"


class RateLimited(exceptions.APIException):
    """A limit kept by a service (challenges an hour) was reached."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = RATE_LIMITED_CODE


def validation_error_detail(error: DjangoValidationError) -> str:
    """A Django validation error's messages as one sentence."""
    return "; ".join(error.messages)


def exception_handler(error: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, taught the errors that services and selectors raise."""
    if isinstance(error, DjangoValidationError):
        if getattr(error, "code", None) == RATE_LIMITED_CODE:
            error = RateLimited(validation_error_detail(error))
        elif hasattr(error, "error_dict"):
            error = exceptions.ValidationError(error.message_dict)
        else:
            error = exceptions.ValidationError({"detail": validation_error_detail(error)})
    elif isinstance(error, RequestDataTooBig):
        error = BodyTooLarge()
    elif isinstance(error, Http404):
        error = exceptions.NotFound(str(error) or None)
    return drf_exception_handler(error, context)


@csrf_exempt
def endpoint_not_found(request: HttpRequest) -> JsonResponse:
    """Any other address under /api/: a JSON 404 like every other API answer."""
    return JsonResponse(
        {"detail": f"there is no API endpoint {request.path}: see /api/docs/"}, status=404
    )
