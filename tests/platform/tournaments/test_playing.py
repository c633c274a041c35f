"""A tournament played to the end in this process: schedule, results, standings, ratings."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser

from bots.models import Bot
from matches.models import Match
from ranked.models import RatingChange
from tournaments.models import Tournament, TournamentTable
from tournaments.selectors import tournament_replays_zip, tournament_standings
from tournaments.services import (
    tournament_advance,
    tournament_enter,
    tournament_freeze,
    tournament_start,
)

pytestmark = pytest.mark.jail


def test_a_round_robin_plays_every_table_once_and_changes_no_rating(
    alice: AbstractUser,
    muggins_bots: list[Bot],
    open_tournament: Callable,
    new_version: Callable,
    play_to_the_end: Callable,
) -> None:
    tournament = open_tournament(repeat=2)
    for bot in muggins_bots:
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    entered = {bot.pk: bot.current_version_id for bot in muggins_bots}
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    new_version(muggins_bots[1])
    play_to_the_end(tournament)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at
    tables = list(TournamentTable.objects.filter(tournament=tournament))
    assert len(tables) == 6 and len({table.key for table in tables}) == 6
    matches = Match.objects.filter(tournament_tables__tournament=tournament)
    assert matches.count() == 6
    assert set(matches.values_list("kind", "status").distinct()) == {("tournament", "finished")}
    for table in tables:
        seats = list(table.match.seats.order_by("seat"))
        assert table.places == [seat.place for seat in seats]
        assert [seat.bot_version_id for seat in seats] == [
            entered[muggins_bots[entrant].pk] for entrant in table.seats
        ]
    assert not RatingChange.objects.exists()
    assert {bot.rating for bot in Bot.objects.filter(pk__in=entered)} == {1600, 1550, 1400}

    standings = tournament_standings(tournament=tournament)
    assert [line.standing.rank for line in standings] == [1, 2, 3]
    assert sum(line.standing.games for line in standings) == 12
    assert sum(line.standing.points for line in standings) == 6  # one point a table

    archive = zipfile.ZipFile(io.BytesIO(tournament_replays_zip(tournament=tournament)))
    assert sorted(archive.namelist()) == sorted(
        f"{table.key}-match{table.match_id}.json.gz" for table in tables
    )


def test_a_failed_match_is_replayed_and_counted_once(
    alice: AbstractUser,
    muggins_bots: list[Bot],
    open_tournament: Callable,
    django_capture_on_commit_callbacks,
) -> None:
    tournament = open_tournament()
    for bot in muggins_bots[:2]:
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    with django_capture_on_commit_callbacks():
        tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    table = TournamentTable.objects.get(tournament=tournament)
    lost = table.match
    Match.objects.filter(pk=lost.pk).update(status=Match.Status.FAILED)
    with django_capture_on_commit_callbacks() as sent:
        assert tournament_advance(tournament_id=tournament.pk) == []
        assert tournament_advance(tournament_id=tournament.pk) == []
    table.refresh_from_db()
    assert table.match_id != lost.pk and table.attempts == 2 and len(sent) == 1
    assert TournamentTable.objects.filter(tournament=tournament).count() == 1


def test_a_knockout_advances_round_by_round_to_one_champion(
    alice: AbstractUser,
    muggins_bots: list[Bot],
    open_tournament: Callable,
    play_to_the_end: Callable,
) -> None:
    tournament = open_tournament(format="knockout", best_of=3)
    for bot in muggins_bots:
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=tournament.entries_close_at)
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    rounds = set(
        TournamentTable.objects.filter(tournament=tournament).values_list("round", flat=True)
    )
    assert rounds == {1, 2}  # the best seed has a bye, then meets the winner
    standings = tournament_standings(tournament=tournament)
    assert [line.standing.status for line in standings].count("champion") == 1
    assert standings[0].standing.status == "champion"
