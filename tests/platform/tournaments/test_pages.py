"""Tournament pages: the list, a tournament's page, the entry form and the replays' zip."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client

from bots.models import Bot
from matches.finish import match_finish
from matches.playing import MatchOutcome, SeatOutcome
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.services import tournament_advance, tournament_freeze, tournament_start


def browser_of(user: AbstractUser | None) -> Client:
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser


def test_the_list_shows_upcoming_tournaments_and_the_page_its_entrants(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    tournament = open_tournament()
    Entry.objects.create(tournament=tournament, bot=muggins_bots[1])
    listing = browser_of(None).get("/tournaments/")
    assert listing.status_code == 200 and "Spring Cup" in listing.content.decode()
    page = browser_of(None).get("/tournaments/spring-cup/").content.decode()
    assert "second" in page and "Enter your bot" not in page
    assert "Enter your bot" in browser_of(alice).get("/tournaments/spring-cup/").content.decode()


def test_an_owner_enters_a_bot_through_the_form(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    open_tournament()
    answer = browser_of(alice).post(
        "/tournaments/spring-cup/enter/", {"bot": muggins_bots[0].pk}, follow=True
    )
    assert "first is entered in Spring Cup" in answer.content.decode()
    assert list(Entry.objects.values_list("bot__name", flat=True)) == ["first"]


def test_entering_twice_through_the_form_shows_why_and_changes_nothing(
    alice: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    Entry.objects.create(tournament=open_tournament(), bot=muggins_bots[0])
    answer = browser_of(alice).post("/tournaments/spring-cup/enter/", {"bot": muggins_bots[0].pk})
    assert answer.status_code == 400 and "already entered" in answer.content.decode()
    assert Entry.objects.count() == 1


def test_the_form_offers_only_your_bots_of_the_tournaments_game(
    bob: AbstractUser, muggins_bots: list[Bot], open_tournament: Callable
) -> None:
    open_tournament()
    answer = browser_of(bob).post("/tournaments/spring-cup/enter/", {"bot": muggins_bots[0].pk})
    assert answer.status_code == 400 and not Entry.objects.exists()


def test_entering_needs_a_login(muggins_bots: list[Bot], open_tournament: Callable) -> None:
    open_tournament()
    answer = browser_of(None).post("/tournaments/spring-cup/enter/", {"bot": muggins_bots[0].pk})
    assert answer.status_code == 302 and not Entry.objects.exists()


@pytest.mark.jail
def test_a_finished_tournament_shows_final_standings_replays_and_the_zip(
    finished_tournament: Tournament,
) -> None:
    page = browser_of(None).get("/tournaments/spring-cup/").content.decode()
    assert "Final standings" in page and page.count(">replay</a>") == 6
    assert "Schedule: every combination of 2 of the 3 entrants: every pair meets once." in page
    assert "round-robin, each table played 2 times." in page
    assert 'http-equiv="refresh"' not in page  # only a running tournament reloads
    answer = browser_of(None).get("/tournaments/spring-cup/replays.zip")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    assert "Finished" in browser_of(None).get("/tournaments/").content.decode()


def test_a_staff_member_creates_a_tournament_in_the_admin(
    alice: AbstractUser, muggins_ladder
) -> None:
    alice.is_staff = alice.is_superuser = True
    alice.save()
    form = {
        "slug": "autumn", "name": "Autumn", "ladder": muggins_ladder.pk, "format": "knockout",
        "repeat": 1, "best_of": 3, "elimination": "double", "seed": "ab12",
        "entries_open_at_0": "2030-01-01", "entries_open_at_1": "10:00",
        "entries_close_at_0": "2030-01-02", "entries_close_at_1": "10:00",
        "starts_at_0": "2030-01-02", "starts_at_1": "12:00", "open_to_all": "on",
        "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0",
    }  # fmt: skip
    answer = browser_of(alice).post("/admin/tournaments/tournament/add/", form)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert Tournament.objects.get(slug="autumn").best_of == 3
    refused = browser_of(alice).post(
        "/admin/tournaments/tournament/add/", {**form, "slug": "even", "best_of": 2}
    )
    assert refused.status_code == 200 and "odd number of games" in refused.content.decode()


def test_a_running_tournament_page_polls_its_standings_instead_of_reloading(
    muggins_bots: list[Bot],
    open_tournament: Callable,
    django_capture_on_commit_callbacks: Callable,
) -> None:
    tournament = open_tournament()
    for bot in muggins_bots[:2]:
        Entry.objects.create(tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    with django_capture_on_commit_callbacks():
        tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    page = browser_of(None).get("/tournaments/spring-cup/").content.decode()
    assert 'http-equiv="refresh"' not in page and "tournament-live.js" in page
    assert 'data-live-url="/tournaments/spring-cup/live.json"' in page

    live = browser_of(None).get("/tournaments/spring-cup/live.json").json()
    assert live["status"] == "running" and "to play" in live["html"]
    assert f'data-stamp="{live["stamp"]}"' in page
    again = browser_of(None).get("/tournaments/spring-cup/live.json", {"stamp": live["stamp"]})
    assert again.json() == {"status": "running", "stamp": live["stamp"]}  # nothing new

    (table,) = TournamentTable.objects.filter(tournament=tournament)
    with django_capture_on_commit_callbacks():
        match_finish(
            match_id=table.match_id,
            outcome=MatchOutcome(
                result={"places": [2, 1]},
                seats=[SeatOutcome(place=2), SeatOutcome(place=1)],
                decisions=9,
            ),
        )
        tournament_advance(tournament_id=tournament.pk)
    done = browser_of(None).get("/tournaments/spring-cup/live.json", {"stamp": live["stamp"]})
    assert done.json()["status"] == "finished"
    assert "Final standings" in done.json()["html"]
