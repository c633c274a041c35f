"""Sign-up, log in and out, the account page and its API token, CSRF."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.test import Client

from accounts.services import user_api_token_get
from accounts.throttles import LoginThrottle


def test_signing_up_makes_the_account_and_logs_in(client: Client, db: None) -> None:
    passphrase = "a-long-passphrase-9"
    answer = client.post(
        "/signup/",
        {"username": "carol", "password1": passphrase, "password2": passphrase},
        follow=True,
    )
    assert answer.redirect_chain[-1][0] == "/account/"
    assert get_user_model().objects.filter(username="carol").exists()
    assert "carol" in answer.content.decode()


def test_sign_up_refuses_mismatched_passwords_and_taken_names(
    client: Client, alice: AbstractUser
) -> None:
    passphrase = "a-long-passphrase-9"
    mismatched = client.post(
        "/signup/", {"username": "carol", "password1": passphrase, "password2": "other-9"}
    )
    taken = client.post(
        "/signup/", {"username": "alice", "password1": passphrase, "password2": passphrase}
    )
    assert mismatched.status_code == taken.status_code == 200
    assert "password fields didn" in mismatched.content.decode()
    assert "already exists" in taken.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("password", ["1234", "password123", "carol123", "86420135"])
def test_sign_up_refuses_a_weak_password(client: Client, db: None, password: str) -> None:
    answer = client.post(
        "/signup/", {"username": "carol", "password1": password, "password2": password}
    )
    assert answer.status_code == 200
    assert 'class="errorlist' in answer.content.decode()
    assert not get_user_model().objects.filter(username="carol").exists()


def test_logging_in_leads_to_the_account_page(client: Client, alice: AbstractUser) -> None:
    answer = client.post(
        "/accounts/login/", {"username": "alice", "password": "alice-password-1"}, follow=True
    )
    assert answer.redirect_chain[-1][0] == "/account/"


def test_a_wrong_password_shows_the_form_again(client: Client, alice: AbstractUser) -> None:
    answer = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert answer.status_code == 200
    assert "enter a correct username and password" in answer.content.decode()


def test_logging_out_is_a_post(alice_browser: Client) -> None:
    answer = alice_browser.post("/accounts/logout/")
    assert answer.status_code == 302
    assert alice_browser.get("/account/").status_code == 302


def test_the_account_page_needs_a_login(client: Client, db: None) -> None:
    answer = client.get("/account/")
    assert answer.status_code == 302
    assert answer["Location"].startswith("/accounts/login/?next=/account/")


def test_the_account_page_shows_the_token_and_the_bots(
    alice_browser: Client, alice: AbstractUser, alice_bot
) -> None:
    html = alice_browser.get("/account/").content.decode()
    assert user_api_token_get(user=alice) in html
    assert f"/bots/{alice_bot.pk}/" in html


def test_regenerating_the_token_replaces_it(alice_browser: Client, alice: AbstractUser) -> None:
    old = user_api_token_get(user=alice)
    answer = alice_browser.post("/account/token/", follow=True)
    new = user_api_token_get(user=alice)
    assert new != old
    assert new in answer.content.decode()


def test_forms_refuse_a_post_without_the_csrf_token(alice: AbstractUser) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    old = user_api_token_get(user=alice)
    assert browser.post("/account/token/").status_code == 403
    assert user_api_token_get(user=alice) == old
    assert 'name="csrfmiddlewaretoken"' in browser.get("/account/").content.decode()


def test_password_guesses_on_the_login_page_are_throttled_per_address(
    client: Client, alice: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.clear()
    monkeypatch.setitem(LoginThrottle.THROTTLE_RATES, "logins", "2/minute")
    for n in range(2):
        assert (
            client.post("/accounts/login/", {"username": "alice", "password": f"x{n}"}).status_code
            == 200
        )
    refused = client.post("/accounts/login/", {"username": "alice", "password": "alice-password-1"})
    assert refused.status_code == 429
    assert "too many logins" in refused.content.decode()
    assert "_auth_user_id" not in client.session
    cache.clear()
