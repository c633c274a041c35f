"""A tournament moves on as soon as one of its matches finishes, not at the next tick."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import Settings

from bots.models import Bot
from matches.finish import match_finish
from matches.playing import MatchOutcome, SeatOutcome
from tournaments.models import Tournament, TournamentTable
from tournaments.services import tournament_enter, tournament_freeze, tournament_start


def won_by_the_first_seat() -> MatchOutcome:
    return MatchOutcome(
        result={"places": [1, 2]}, seats=[SeatOutcome(place=1), SeatOutcome(place=2)], decisions=9
    )


def test_a_finished_match_advances_its_tournament_once(
    muggins_bots: list[Bot],
    open_tournament: Callable[..., Tournament],
    settings: Settings,
    celery_eager: None,
    django_capture_on_commit_callbacks: Callable,
) -> None:
    settings.TAVOLO_TOURNAMENT_BATCH = 1
    tournament = open_tournament()
    for bot in muggins_bots:
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    with django_capture_on_commit_callbacks():
        tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    (first,) = TournamentTable.objects.filter(tournament=tournament)

    with django_capture_on_commit_callbacks() as finished:
        assert match_finish(match_id=first.match_id, outcome=won_by_the_first_seat())
    for _ in range(2):  # the advance delivered twice counts the table once
        with django_capture_on_commit_callbacks() as sent:
            for callback in finished:
                callback()
        first.refresh_from_db()
        assert first.places == [1, 2]
        assert TournamentTable.objects.filter(tournament=tournament).count() == 2
    assert not sent  # the second delivery made no table and sent no match
