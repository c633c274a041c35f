"""Staff create a tournament through a form on the site; every input is checked, with reasons."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractUser, User
from django.test import Client

from ladders.models import Ladder
from tournaments.models import Tournament


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("referee", password="x", is_staff=True)


def browser_of(user: AbstractUser) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def fields(ladder: Ladder, **changes: object) -> dict[str, object]:
    return {
        "name": "Autumn Open",
        "slug": "autumn-open",
        "ladder": ladder.pk,
        "format": "round-robin",
        "repeat": 2,
        "best_of": 1,
        "elimination": "single",
        "entries_open_at": "2030-10-01T09:00",
        "entries_close_at": "2030-10-05T09:00",
        "starts_at": "2030-10-05T10:00",
        "open_to_all": "on",
        **changes,
    }


def test_staff_create_a_tournament_and_land_on_its_page(
    staff: User, muggins_ladder: Ladder
) -> None:
    answer = browser_of(staff).post("/tournaments/new/", fields(muggins_ladder), follow=True)
    assert "Autumn Open is created" in answer.content.decode()
    created = Tournament.objects.get(slug="autumn-open")
    assert (created.format, created.repeat, created.ladder) == ("round-robin", 2, muggins_ladder)
    assert created.starts_at.isoformat() == "2030-10-05T10:00:00+00:00"
    assert "Create a tournament" in browser_of(staff).get("/tournaments/").content.decode()


@pytest.mark.parametrize(
    ("ladder_slug", "changes", "reason"),
    [
        ("muggins-4", {"format": "knockout"}, "knockout"),
        ("muggins-2", {"format": "swiss", "rounds": 0}, "greater than or equal to 1"),
        ("muggins-2", {"format": "swiss"}, "rounds"),
        ("muggins-2", {"best_of": 2, "format": "knockout"}, "odd number of games"),
        ("muggins-2", {"starts_at": "2030-10-04T10:00"}, "close by the start"),
        ("muggins-2", {"points": "[0, 1]"}, "points"),
        ("muggins-2", {"points": "three"}, "JSON"),
        ("muggins-2", {"starts_at": "soon"}, "Enter a valid date/time"),
        ("muggins-2", {"slug": "a b"}, "slug"),
        ("muggins-2", {"format": "league"}, "Select a valid choice"),
    ],
)
def test_a_tournament_that_could_not_run_is_refused_with_the_reason(
    staff: User, muggins_ladder: Ladder, ladder_slug: str, changes: dict, reason: str
) -> None:
    ladder = Ladder.objects.get(slug=ladder_slug)
    answer = browser_of(staff).post("/tournaments/new/", fields(ladder, **changes))
    assert answer.status_code == 400
    assert reason.lower() in answer.content.decode().lower()
    assert not Tournament.objects.exists()


def test_only_staff_see_the_form(alice: AbstractUser, muggins_ladder: Ladder) -> None:
    assert browser_of(alice).get("/tournaments/new/").status_code == 403
    assert browser_of(alice).post("/tournaments/new/", fields(muggins_ladder)).status_code == 403
    assert Client().get("/tournaments/new/").status_code == 302
    assert not Tournament.objects.exists()
    assert "Create a tournament" not in browser_of(alice).get("/tournaments/").content.decode()
