"""A visitor without a session is answered a kept page before the session, CSRF and auth
middleware, with the headers the whole stack gives it; an owner never gets that copy, and
no visitor gets an owner's page."""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.throttles import AnonymousReadThrottle
from bots.models import Bot
from matches.models import Match

OWNER_ONLY = "Upload a new version"


def answered_early(answer: HttpResponse) -> bool:
    """Whether the answer came before the authentication middleware gave the request a user."""
    return not hasattr(answer.wsgi_request, "user")  # type: ignore[attr-defined]


def kept_and_recorded(client: Client, path: str) -> HttpResponse:
    """The answer from the stack once the page is kept and served from its copy (which
    records the copy's headers); the next visitor's is answered early."""
    client.get(path)  # renders and keeps the page
    answer = client.get(path)  # served from the copy through the whole stack
    assert answer.status_code == 200 and not answered_early(answer)
    return answer


def test_a_visitor_gets_the_kept_page_early_with_the_headers_of_the_whole_stack(
    alice_bot: Bot,
) -> None:
    path = f"/bots/{alice_bot.pk}/"
    through_stack = kept_and_recorded(Client(), path)
    with CaptureQueriesContext(connection) as captured:
        early = Client().get(path)
    assert answered_early(early) and len(captured) == 0
    assert early.content == through_stack.content
    ignored = {"X-Request-ID"}
    assert {name: value for name, value in early.items() if name not in ignored} == {
        name: value for name, value in through_stack.items() if name not in ignored
    }
    assert "Content-Security-Policy" in early and early["X-Frame-Options"] == "DENY"
    assert early["Content-Length"] == str(len(early.content))


def test_the_early_copy_is_gzipped_for_a_client_that_takes_it(alice_bot: Bot) -> None:
    path = f"/bots/{alice_bot.pk}/"
    plain = kept_and_recorded(Client(), path)
    zipped = Client().get(path, headers={"accept-encoding": "gzip"})
    assert answered_early(zipped)
    assert zipped["Content-Encoding"] == "gzip"
    assert zipped["Content-Length"] == str(len(zipped.content))
    assert gzip.decompress(zipped.content) == plain.content
    assert "Accept-Encoding" in zipped["Vary"]


def test_a_signed_in_owner_never_gets_the_visitor_copy(
    alice_bot: Bot, alice_browser: Client
) -> None:
    path = f"/bots/{alice_bot.pk}/"
    kept_and_recorded(Client(), path)
    assert answered_early(Client().get(path))
    for _ in range(3):
        answer = alice_browser.get(path)
        assert not answered_early(answer)
        assert OWNER_ONLY in answer.content.decode()


def test_a_visitor_never_gets_the_owner_page(alice_bot: Bot, alice_browser: Client) -> None:
    path = f"/bots/{alice_bot.pk}/"
    for _ in range(3):
        assert OWNER_ONLY in alice_browser.get(path).content.decode()
    for _ in range(3):
        html = Client().get(path).content.decode()
        assert OWNER_ONLY not in html and "csrfmiddlewaretoken" not in html


def test_a_visitor_with_a_session_goes_through_the_stack(
    alice_bot: Bot, alice: AbstractUser
) -> None:
    path = f"/bots/{alice_bot.pk}/"
    kept_and_recorded(Client(), path)
    signed_out = Client()
    signed_out.force_login(alice)
    signed_out.logout()
    signed_out.cookies["sessionid"] = "no-such-session"
    answer = signed_out.get(path)
    assert answer.status_code == 200 and not answered_early(answer)
    assert OWNER_ONLY not in answer.content.decode()


def test_a_host_the_site_does_not_serve_is_refused_though_the_page_is_kept(
    alice_bot: Bot,
) -> None:
    path = f"/bots/{alice_bot.pk}/"
    kept_and_recorded(Client(), path)
    assert Client().get(path, headers={"host": "attacker.example"}).status_code == 400


def test_early_answers_count_against_the_read_budget(
    alice_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(AnonymousReadThrottle.THROTTLE_RATES, "reads", "3/minute")
    path = f"/bots/{alice_bot.pk}/"
    kept_and_recorded(Client(), path)
    visitor = Client()
    assert answered_early(visitor.get(path))  # the third read of the budget
    refused = visitor.get(path)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_a_finished_match_shows_on_the_page_once_the_copy_is_past_its_time(
    alice_bot: Bot, house: Bot, finish: Callable[..., Match], settings
) -> None:
    settings.TAVOLO_PAGE_CACHE_SECONDS = 1
    path = f"/bots/{alice_bot.pk}/"
    kept_and_recorded(Client(), path)
    match = finish([alice_bot, house], [1, 2])
    assert f"/matches/{match.pk}/" not in Client().get(path).content.decode()
    time.sleep(1.1)
    assert f"/matches/{match.pk}/" in Client().get(path).content.decode()
