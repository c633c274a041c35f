"""Changes to user accounts: creating users, the system user, API tokens."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.db import transaction
from rest_framework.authtoken.models import Token

SYSTEM_USERNAME = "tavolo"
"""The user that owns the house bots; it cannot log in."""


def user_create(*, username: str, password: str, email: str = "", is_staff: bool = False) -> User:
    """A new user who can log in; staff users are also superusers of the admin.

    A ValidationError if the name is taken or the password is too weak (the
    validators of ``AUTH_PASSWORD_VALIDATORS``).
    """
    user_model = get_user_model()
    user = user_model(username=username, email=email, is_staff=is_staff, is_superuser=is_staff)
    user.full_clean(exclude=["password"])
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user


def user_system_get() -> User:
    """The system user that owns house bots, created on first use."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=SYSTEM_USERNAME, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def user_api_token_get(*, user: User) -> str:
    """The user's personal API token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    key: str = token.key
    return key


@transaction.atomic
def user_api_token_rotate(*, user: User) -> str:
    """Replace the user's API token with a new one; the old one stops working."""
    Token.objects.filter(user=user).delete()
    key: str = Token.objects.create(user=user).key
    return key
