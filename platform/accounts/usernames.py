"""The one form of a user name that every log-in check and count uses.

Django's log-in forms strip a user name and normalise it to NFKC before they
authenticate it (`django.contrib.auth.forms.UsernameField`); every log-in path
of the site hands its name to `username_normalize` first, so that the name a
brake checks is the name whose password is checked. Sign-up refuses a name
that differs from a taken one only in case, so the brakes count all the cases
of a name as one account (`username_key`).
"""

from __future__ import annotations

import hashlib

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UsernameField


def username_normalize(raw: object) -> str:
    """The user name as Django's log-in forms authenticate it: stripped, in NFKC."""
    max_length = get_user_model()._meta.get_field("username").max_length
    return str(UsernameField(max_length=max_length).to_python(raw))


def username_key(raw: object) -> str:
    """A short stable key for the account a name means, whatever its case or spelling."""
    canonical = username_normalize(raw).casefold()
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]
