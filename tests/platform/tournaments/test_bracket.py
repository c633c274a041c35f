"""A knockout's bracket: series by round, each side's wins and the winner, as the format decides."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client

from bots.models import Bot
from matches.finish import match_finish
from matches.playing import MatchOutcome, SeatOutcome
from tournaments.bracket import tournament_bracket
from tournaments.models import Tournament, TournamentTable
from tournaments.selectors import tournament_entries, tournament_tables
from tournaments.services import (
    tournament_advance,
    tournament_enter,
    tournament_freeze,
    tournament_start,
)


def won_by(table: TournamentTable, entrant: int) -> None:
    places = [1 if seat == entrant else 2 for seat in table.seats]
    outcome = MatchOutcome(
        result={"places": places}, seats=[SeatOutcome(place=p) for p in places], decisions=5
    )
    assert match_finish(match_id=table.match_id, outcome=outcome)


def bracket_of(tournament: Tournament) -> list:
    return tournament_bracket(
        tournament=tournament,
        tables=tournament_tables(tournament=tournament),
        entries=tournament_entries(tournament=tournament),
    )


def test_the_bracket_shows_the_upset_and_the_final_to_play(
    muggins_bots: list[Bot],
    open_tournament: Callable[..., Tournament],
    django_capture_on_commit_callbacks: Callable,
) -> None:
    tournament = open_tournament(format="knockout", best_of=3)
    for bot in muggins_bots:
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    with django_capture_on_commit_callbacks():
        tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
        for table in TournamentTable.objects.filter(tournament=tournament):
            won_by(table, entrant=2)  # the worst seed wins its first series 2-0
        tournament_advance(tournament_id=tournament.pk)

    first, final = bracket_of(tournament)
    (series,) = first.series
    assert [(side.entry.bot.name, side.wins, side.winner) for side in series.sides] == [
        ("second", 0, False),
        ("third", 2, True),
    ]
    assert [game.game for game in series.games] == [1, 2]
    (deciding,) = final.series
    assert [(side.entry.bot.name, side.wins, side.winner) for side in deciding.sides] == [
        ("first", 0, False),
        ("third", 0, False),
    ]
    page = Client().get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "<h2>Bracket</h2>" in page and page.count('class="winner"') == 1
    assert f'href="/matches/{series.games[0].match_id}/"' in page


def test_a_round_robin_has_no_bracket(
    muggins_bots: list[Bot], open_tournament: Callable[..., Tournament]
) -> None:
    tournament = open_tournament()
    assert bracket_of(tournament) == []
    assert "Bracket" not in Client().get(f"/tournaments/{tournament.slug}/").content.decode()
