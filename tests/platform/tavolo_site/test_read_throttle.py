"""Anonymous clients read within a budget per address, shared by the pages and the API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client

from accounts.throttles import AnonymousReadThrottle


@pytest.fixture
def three_reads_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(AnonymousReadThrottle.THROTTLE_RATES, "reads", "3/minute")


def test_an_anonymous_client_over_its_read_budget_is_told_to_wait(
    db: None, three_reads_a_minute: None
) -> None:
    client = Client()
    answers = [client.get(path).status_code for path in ("/", "/ladders/", "/api/ladders/")]
    assert answers == [200, 200, 200]
    page = client.get("/")
    assert page.status_code == 429
    assert int(page["Retry-After"]) > 0
    assert "too many pages read" in page.content.decode()
    api = client.get("/api/ladders/")
    assert api.status_code == 429, "the API shares the pages' budget"
    assert int(api["Retry-After"]) > 0
    assert Client(REMOTE_ADDR="198.51.100.5").get("/").status_code == 200, "per address"


def test_signed_in_users_and_operations_paths_are_not_counted(
    alice: AbstractUser, three_reads_a_minute: None
) -> None:
    browser = Client()
    browser.force_login(alice)
    assert {browser.get("/ladders/").status_code for _ in range(5)} == {200}
    anonymous = Client()
    assert {anonymous.get("/healthz").status_code for _ in range(5)} == {200}
