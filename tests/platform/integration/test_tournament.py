"""A tournament on the real stack: entries, frozen versions, matches on a real worker, standings."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from datetime import timedelta

import pytest
import redis
from django.contrib.auth.models import AbstractUser
from django.utils import timezone

from accounts.services import user_create
from arena.replay import loads_replay, verify_replay
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match
from ranked.models import RatingChange
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.selectors import tournament_replays_zip, tournament_standings
from tournaments.services import tournament_enter, tournaments_tick

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.jail]


def test_a_swiss_tournament_is_played_by_the_workers_from_entries_to_final_standings(
    alice: AbstractUser,
    bob: AbstractUser,
    ladders: dict[str, Ladder],
    accepted_bot: Callable[..., Bot],
    worker: object,
    wait_for: Callable[..., None],
) -> None:
    ladder = ladders["muggins-2"]
    Ladder.objects.exclude(pk=ladder.pk).update(active=False)
    bots = [
        accepted_bot(owner=owner, ladder=ladder, name=name, rating=rating)
        for owner, name, rating in [
            (alice, "ace", 1700),
            (bob, "bishop", 1600),
            (user_create(username="carol", password="carol-password-1"), "castle", 1500),
            (user_create(username="dave", password="dave-password-1"), "dame", 1400),
        ]
    ]
    now = timezone.now()
    tournament = Tournament(
        slug="night-cup",
        name="Night Cup",
        ladder=ladder,
        format="swiss",
        rounds=2,
        entries_open_at=now - timedelta(minutes=5),
        entries_close_at=now + timedelta(minutes=5),
        starts_at=now + timedelta(minutes=6),
    )
    tournament.full_clean()
    tournament.save()
    for bot in bots:
        tournament_enter(user=bot.owner, tournament=tournament, bot=bot)
    entered = {bot.pk: bot.current_version_id for bot in bots}

    tournaments_tick(now=tournament.entries_close_at)  # the deadline: versions frozen
    late = BotVersion.objects.create(
        bot=bots[0], number=2, source="x", sha256="0" * 64, size=1, status="accepted"
    )
    Bot.objects.filter(pk=bots[0].pk).update(current_version=late)
    tournaments_tick(now=tournament.starts_at)  # the start: round 1 sent to the worker

    def finished() -> bool:
        tournaments_tick(now=tournament.starts_at)  # what beat does every few seconds
        return Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED

    wait_for(finished, seconds=180, what="the tournament")
    tournament.refresh_from_db()

    entries = {entry.bot_id: entry for entry in Entry.objects.filter(tournament=tournament)}
    assert {bot_id: entry.version_id for bot_id, entry in entries.items()} == entered
    assert [entries[bot.pk].number for bot in bots] == [0, 1, 2, 3]
    tables = list(TournamentTable.objects.filter(tournament=tournament))
    assert sorted(table.round for table in tables) == [1, 1, 2, 2]
    for table in tables:
        assert table.match.kind == Match.Kind.TOURNAMENT
        assert table.match.status == Match.Status.FINISHED, table.match.failure_reason
        seats = list(table.match.seats.order_by("seat"))
        assert table.places == [seat.place for seat in seats]
        assert {seat.bot_version_id for seat in seats} <= set(entered.values())
    assert not RatingChange.objects.exists()
    assert len({frozenset(table.seats) for table in tables}) == 4  # no table repeated

    standings = tournament_standings(tournament=tournament)
    assert [line.standing.rank for line in standings] == [1, 2, 3, 4]
    assert sum(line.standing.games for line in standings) == 8
    archive = zipfile.ZipFile(io.BytesIO(tournament_replays_zip(tournament=tournament)))
    assert len(archive.namelist()) == 4
    for name in archive.namelist():
        verify_replay(loads_replay(archive.read(name)))


def test_tournament_matches_are_sent_ahead_of_ladder_matches(
    alice: AbstractUser,
    ladders: dict[str, Ladder],
    accepted_bot: Callable[..., Bot],
    redis_broker: str,
) -> None:
    """Redis hands out a queue's lowest priority number first: 0 before the default 6."""
    from django.db import transaction

    from matches.services import match_create, matches_recover
    from tournaments.services import tournament_matches_enqueue

    ladder = ladders["muggins-2"]
    versions = [
        accepted_bot(owner=alice, ladder=ladder, name=name).current_version for name in "ab"
    ]
    with transaction.atomic():
        ranked = match_create(ladder=ladder, kind=Match.Kind.RANKED, versions=versions)
    with transaction.atomic():
        played = match_create(
            ladder=ladder, kind=Match.Kind.TOURNAMENT, versions=versions, enqueue=False
        )
        tournament_matches_enqueue(match_ids=[played.pk])
    client = redis.Redis.from_url(redis_broker)
    first = json.loads(client.rpop("matches"))  # the key BRPOP reads first
    assert first["headers"]["argsrepr"] == f"({played.pk},)"
    later = [key for key in client.keys("matches*") if key != b"matches"]
    assert len(later) == 1
    assert json.loads(client.lindex(later[0], 0))["headers"]["argsrepr"] == f"({ranked.pk},)"

    lost = timezone.now() - timedelta(hours=1)  # its worker died: recovery sends it ahead again
    Match.objects.filter(pk=played.pk).update(status=Match.Status.RUNNING, started_at=lost)
    with transaction.atomic():
        assert matches_recover() == [played.pk]
    resent = json.loads(client.rpop("matches"))
    assert resent["headers"]["argsrepr"] == f"({played.pk},)"
