"""Every link on the site leads somewhere: crawl from the home page and follow them all."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from matches.models import Match

MAX_PAGES = 200


class LinkParser(HTMLParser):
    """Collects the href of every <a>, the action of every <form>, and what the
    Content-Security-Policy would block: inline scripts, handlers and style attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.forms: list[str] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and not values.get("src"):
            self.inline.append("<script> without src")
        self.inline += [name for name in values if name == "style" or name.startswith("on")]
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])
        if tag == "form" and values.get("action"):
            self.forms.append(values["action"])


def crawl(client: Client) -> tuple[dict[str, int], set[str]]:
    """The final status of every page reachable from /, and every form action seen.

    Every page checked on the way has a Content-Security-Policy header that allows
    only the site's own script files, and nothing inline that its policy would block.
    """
    seen: dict[str, int] = {}
    forms: set[str] = set()
    waiting = ["/"]
    while waiting and len(seen) < MAX_PAGES:
        path = waiting.pop()
        if path in seen:
            continue
        answer = client.get(path, follow=True)  # login-only pages lead to the login form
        seen[path] = answer.status_code
        if "text/html" not in answer.get("Content-Type", ""):
            continue
        parser = LinkParser()
        parser.feed(answer.content.decode())
        directives = dict(
            directive.strip().split(" ", 1)
            for directive in answer["Content-Security-Policy"].split(";")
        )
        assert directives["script-src"] == "'self'", path
        scripts_and_handlers = [name for name in parser.inline if name != "style"]
        assert not scripts_and_handlers, (
            f"{path} has {scripts_and_handlers}: the policy blocks them"
        )
        if directives["style-src"] == "'self'":
            assert "style" not in parser.inline, (
                f"{path} has a style attribute: the policy blocks it"
            )
        forms.update(parser.forms)
        for link in parser.links:
            internal = link.split("#")[0]
            if internal.startswith("/") and internal not in seen:
                waiting.append(internal)
    return seen, forms


@pytest.mark.parametrize("who", ["anonymous", "alice"])
def test_every_link_reachable_from_home_answers_200(
    who: str, client: Client, alice_browser: Client, played: Match
) -> None:
    seen, _ = crawl(alice_browser if who == "alice" else client)
    broken = {path: status for path, status in seen.items() if status != 200}
    assert not broken
    expected = {"/", "/ladders/", "/ratings/", "/write-a-bot/", "/api/docs/", "/api/schema/"}
    assert expected <= set(seen)
    assert f"/matches/{played.pk}/replay.json.gz" in seen
    assert f"/matches/{played.pk}/replay.json" in seen
    assert len(seen) < MAX_PAGES, "the crawl should finish"


def test_the_owner_reaches_their_forms_and_source_pages(
    alice_browser: Client, played: Match
) -> None:
    seen, forms = crawl(alice_browser)
    bot_id = played.seats.get(seat=0).bot_id
    assert "/account/" in seen
    assert f"/bots/{bot_id}/versions/1/" in seen
    assert {
        "/accounts/logout/",
        "/account/token/",
        "/account/bots/",
        f"/bots/{bot_id}/upload/",
        f"/bots/{bot_id}/challenge/",
    } <= forms
