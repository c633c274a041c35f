"""The requests of views that require a login, typed with the signed-in user.

At run time these are Django's and DRF's own requests; the types only tell the
checker what `login_required` or a login-requiring DRF permission already
ensures, so that such a view may hand ``request.user`` to a service that needs
a real user.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.request import Request


class SignedInHttpRequest(HttpRequest):
    """A request of a site view behind `login_required`."""

    user: User


class SignedInRequest(Request):
    """A request of an API method that only a signed-in user may call."""

    user: User
