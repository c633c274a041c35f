"""The bot page's owner actions: delete a bot never accepted, retire and return one that was,
each confirmed on a page of its own and sent as a POST with the CSRF token; and the
qualification matches each version played, with how it fared."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client

from bots.models import Bot
from bots.services import bot_retire
from ladders.models import Ladder
from matches.models import Match


@pytest.fixture
def crasher(alice: AbstractUser, mia_ladder: Ladder, rejected_bot: Callable[..., Bot]) -> Bot:
    return rejected_bot(owner=alice, ladder=mia_ladder)


def csrf_browser(user: AbstractUser) -> Client:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    return browser


def form_token(page: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert found, "the page has no CSRF token"
    return found.group(1)


def test_deleting_is_confirmed_then_removes_the_bot_and_its_files(
    alice: AbstractUser,
    crasher: Bot,
    match_files: Callable[[Bot], list[Path]],
    django_capture_on_commit_callbacks,
) -> None:
    files = match_files(crasher)
    browser = csrf_browser(alice)
    page = browser.get(f"/bots/{crasher.pk}/").content.decode()
    assert f'href="/bots/{crasher.pk}/delete/"' in page

    confirm = browser.get(f"/bots/{crasher.pk}/delete/")
    text = confirm.content.decode()
    assert confirm.status_code == 200
    assert "1 version and 1 qualification match with" in text
    assert Bot.objects.filter(pk=crasher.pk).exists()  # asking deletes nothing

    assert browser.post(f"/bots/{crasher.pk}/delete/").status_code == 403  # no CSRF token
    assert Bot.objects.filter(pk=crasher.pk).exists()

    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post(
            f"/bots/{crasher.pk}/delete/", {"csrfmiddlewaretoken": form_token(text)}, follow=True
        )
    assert answer.redirect_chain[-1][0] == "/account/"
    assert "crasher is deleted" in answer.content.decode()
    assert not Bot.objects.filter(pk=crasher.pk).exists()
    assert [path for path in files if path.exists()] == []


def test_another_user_can_neither_see_the_buttons_nor_delete(
    bob_browser: Client, crasher: Bot, match_files: Callable[[Bot], list[Path]]
) -> None:
    page = bob_browser.get(f"/bots/{crasher.pk}/").content.decode()
    assert "/delete/" not in page
    assert bob_browser.get(f"/bots/{crasher.pk}/delete/").status_code == 403
    assert bob_browser.post(f"/bots/{crasher.pk}/delete/").status_code == 403
    assert Bot.objects.filter(pk=crasher.pk).exists()
    assert all(path.exists() for path in match_files(crasher))


def test_a_stranger_is_sent_to_log_in(client: Client, crasher: Bot) -> None:
    answer = client.post(f"/bots/{crasher.pk}/delete/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert Bot.objects.filter(pk=crasher.pk).exists()


def test_an_accepted_bot_offers_retiring_not_deleting(
    alice_browser: Client, alice_bot: Bot
) -> None:
    page = alice_browser.get(f"/bots/{alice_bot.pk}/").content.decode()
    assert f'href="/bots/{alice_bot.pk}/retire/"' in page
    assert f'href="/bots/{alice_bot.pk}/delete/"' not in page
    confirm = alice_browser.get(f"/bots/{alice_bot.pk}/delete/").content.decode()
    assert "retire it instead" in confirm and "<form" not in confirm.split("<h1>")[1]
    answer = alice_browser.post(f"/bots/{alice_bot.pk}/delete/", follow=True)
    assert "retire it instead" in answer.content.decode()
    assert Bot.objects.filter(pk=alice_bot.pk).exists()


def test_retiring_is_confirmed_shows_the_reason_and_the_owner_returns_it(
    alice: AbstractUser, alice_bot: Bot
) -> None:
    browser = csrf_browser(alice)
    confirm = browser.get(f"/bots/{alice_bot.pk}/retire/").content.decode()
    assert "leaves the standings" in confirm
    assert browser.post(f"/bots/{alice_bot.pk}/retire/").status_code == 403  # no CSRF token
    answer = browser.post(
        f"/bots/{alice_bot.pk}/retire/", {"csrfmiddlewaretoken": form_token(confirm)}, follow=True
    )
    page = answer.content.decode()
    assert "Retired" in page and "retired by its owner" in page
    assert "Return it to the ladder" in page
    alice_bot.refresh_from_db()
    assert alice_bot.is_retired

    ladder = browser.get(f"/ladders/{alice_bot.ladder.slug}/").content.decode()
    assert "<h2>Retired</h2>" in ladder and "domino" in ladder.split("<h2>Retired</h2>")[1]
    for listing in ("/account/", "/users/alice/"):
        assert (
            'domino</a> <span class="tag">retired</span>' in browser.get(listing).content.decode()
        )

    answer = browser.post(
        f"/bots/{alice_bot.pk}/unretire/", {"csrfmiddlewaretoken": form_token(page)}, follow=True
    )
    assert "domino is back" in answer.content.decode()
    alice_bot.refresh_from_db()
    assert not alice_bot.is_retired


def test_an_automatic_retirement_shows_its_reason_and_others_get_no_button(
    bob_browser: Client, alice_bot: Bot
) -> None:
    bot_retire(bot=alice_bot, reason="crashed in each of its last 5 matches")
    page = bob_browser.get(f"/bots/{alice_bot.pk}/").content.decode()
    assert "crashed in each of its last 5 matches" in page
    assert "Return it to the ladder" not in page
    assert bob_browser.post(f"/bots/{alice_bot.pk}/unretire/").status_code == 403
    assert bob_browser.post(f"/bots/{alice_bot.pk}/retire/").status_code == 403
    alice_bot.refresh_from_db()
    assert alice_bot.is_retired


def test_the_bot_page_links_each_qualification_match_with_its_outcome(
    alice_browser: Client, crasher: Bot
) -> None:
    match = Match.objects.get(seats__bot=crasher)
    page = alice_browser.get(f"/bots/{crasher.pk}/").content.decode()
    assert (
        f'<a href="/matches/{match.pk}/">#{match.pk}</a> <span class="down">crashed</span>' in page
    )
    assert f'href="/bots/{crasher.pk}/versions/1/"' in page
    version_page = alice_browser.get(f"/bots/{crasher.pk}/versions/1/").content.decode()
    assert f'match #{match.pk}</a>: <span class="down">crashed</span>' in version_page


def test_a_qualification_match_played_shows_the_place_and_infractions(
    alice_browser: Client,
    alice: AbstractUser,
    mia_ladder: Ladder,
    accepted_bot: Callable[..., Bot],
    finish: Callable[..., Match],
) -> None:
    bot = accepted_bot(owner=alice, ladder=mia_ladder, name="steady")
    houses = list(Bot.objects.filter(ladder=mia_ladder, kind=Bot.Kind.HOUSE))
    house = [houses[n % len(houses)] for n in range(3)]
    clean = finish([bot, *house], [2, 1, 3, 4], kind=Match.Kind.QUALIFICATION)
    late = finish([*house, bot], [1, 2, 4, 3], kind=Match.Kind.QUALIFICATION)
    late.seats.filter(bot=bot).update(infractions=2)
    page = alice_browser.get(f"/bots/{bot.pk}/").content.decode()
    assert f'#{clean.pk}</a> <span class="muted">place 2 of 4</span>' in page
    assert f'#{late.pk}</a> <span class="down">place 3 of 4, 2 infractions</span>' in page
