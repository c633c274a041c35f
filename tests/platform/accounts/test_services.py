"""Accounts: users and their personal API token."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError

from accounts.services import user_api_token_get, user_api_token_rotate, user_create


def test_a_new_user_can_log_in_with_the_password(alice: AbstractUser) -> None:
    assert alice.check_password("alice-password-1")
    assert not alice.is_staff


def test_a_username_is_taken_once(alice: AbstractUser) -> None:
    with pytest.raises(ValidationError):
        user_create(username="alice", password="another-password-1")


def test_a_weak_password_is_refused_and_no_user_is_made(db: None) -> None:
    with pytest.raises(ValidationError, match="too common"):
        user_create(username="carol", password="password")
    assert not get_user_model().objects.exists()


def test_the_api_token_is_made_once_and_then_kept(alice: AbstractUser) -> None:
    token = user_api_token_get(user=alice)
    assert len(token) == 40
    assert user_api_token_get(user=alice) == token


def test_rotating_the_token_replaces_it(alice: AbstractUser, bob: AbstractUser) -> None:
    old = user_api_token_get(user=alice)
    new = user_api_token_rotate(user=alice)
    assert new != old
    assert user_api_token_get(user=alice) == new
    assert user_api_token_get(user=bob) not in (old, new)
