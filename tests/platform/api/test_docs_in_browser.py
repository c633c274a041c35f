"""Swagger UI and Redoc in a real browser (headless Chromium), under the pages' own policy.

Nothing may leave the site: every request goes to the live server, or is one the
Content-Security-Policy stopped inside the browser (Redoc's sidebar names a logo
on redoc.ly). "Try it out" sends a real request with the token entered in
Swagger UI's Authorize dialog.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import AbstractUser
from playwright.sync_api import Browser, Page, Request

from accounts.services import user_api_token_get

BLOCKED_BY_POLICY = {"csp", "net::ERR_BLOCKED_BY_CSP"}
"""How Chromium reports a request its Content-Security-Policy stopped, by version."""
WAIT_MS = 30_000

pytestmark = pytest.mark.browser


class Visit:
    """A page and every request it made, with what went wrong in its scripts."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.requests: list[Request] = []
        self.errors: list[str] = []
        page.on("request", lambda request: self.requests.append(request))
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def left_the_site(self, origin: str) -> list[str]:
        """Requests to another origin that were not stopped by the policy."""
        return [
            f"{request.url} ({request.failure})"
            for request in self.requests
            if not request.url.startswith((origin, "data:", "blob:"))
            and request.failure not in BLOCKED_BY_POLICY
        ]


@pytest.fixture
def visit(chromium: Browser, live_server, transactional_db: None) -> Iterator[Visit]:
    context = chromium.new_context()
    yield Visit(context.new_page())
    context.close()


@pytest.mark.parametrize(
    ("path", "drawn"), [("/api/docs/", ".opblock"), ("/api/docs/redoc/", "h1")]
)
def test_a_docs_page_draws_the_schema_with_nothing_from_elsewhere(
    visit: Visit, live_server, path: str, drawn: str
) -> None:
    visit.page.goto(live_server.url + path)
    visit.page.wait_for_selector(drawn, timeout=WAIT_MS)
    assert "Tavolo API" in visit.page.content()
    assert visit.errors == []
    assert visit.left_the_site(live_server.url) == []
    assert any(request.url.endswith("/api/schema/") for request in visit.requests)


def test_try_it_out_sends_the_token_entered_in_swagger_ui(
    visit: Visit, live_server, alice: AbstractUser
) -> None:
    token = user_api_token_get(user=alice)
    page = visit.page
    page.goto(live_server.url + "/api/docs/")
    page.click("button.authorize", timeout=WAIT_MS)
    token_form = page.locator(".auth-container", has_text="tokenAuth")
    token_form.locator("input").fill(f"Token {token}")
    token_form.locator("button.authorize").click()
    page.click("button.btn-done")
    me = page.locator(".opblock-get", has=page.locator('[data-path="/api/me/"]'))
    me.locator(".opblock-summary").first.click()
    me.locator("button.try-out__btn").click()
    me.locator("button.execute").click()
    status = me.locator(".live-responses-table tr.response .response-col_status").first
    status.wait_for(timeout=WAIT_MS)
    assert status.inner_text().strip() == "200"
    assert '"username": "alice"' in me.locator(".live-responses-table").inner_text()
    assert visit.left_the_site(live_server.url) == []
