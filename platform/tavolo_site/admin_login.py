"""The admin's log-in page under the brakes on password guesses of `accounts.logins`."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from accounts.logins import login_refusal
from accounts.usernames import username_normalize
from tavolo_site.outages import error_response


def admin_login(request: HttpRequest) -> HttpResponse:
    """`admin.site.login`, refusing a POST over the address budget or at a locked account."""
    if request.method == "POST":
        refusal = login_refusal(request, username_normalize(request.POST.get("username", "")))
        if refusal is not None:
            response = error_response(request, 429, str(refusal))
            response["Retry-After"] = str(refusal.wait)
            return response
    return admin.site.login(request)
