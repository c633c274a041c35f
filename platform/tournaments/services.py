"""Changes to tournaments: entering, freezing the field, starting, advancing round by round.

`tournament_advance` is the one step that moves an event on: it copies the
places of finished matches onto their tables (once), builds the format again
from those results and creates matches for the tables it names next. It runs
with the tournament's row locked, so two advances at once cannot create a table
twice, and the table's unique key backs that up.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from arena.tournaments import TournamentError
from bots.models import Bot, BotVersion
from bots.selectors import bot_owner_check
from matches.dispatch import matches_send
from matches.models import Match, MatchSeat
from matches.services import matches_create
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.selectors import table_result

logger = logging.getLogger(__name__)

ADVANCE_TASK = "tournaments.tasks.tournament_advance"
"""The task that advances one tournament after one of its matches finished."""

TABLE_ATTEMPTS = 3
"""Matches made for one table before the tournament is cancelled as unplayable."""


def tournament_entry_check(
    *, user: User, tournament: Tournament, bot: Bot, now: datetime | None = None
) -> None:
    """Refuse an entry that may not be made, with the reason."""
    now = now or timezone.now()
    bot_owner_check(user=user, bot=bot)
    if bot.ladder_id != tournament.ladder_id:
        raise ValidationError(
            f"{bot.name} plays on {bot.ladder.name}; this tournament is played on"
            f" {tournament.ladder.name}",
            code="wrong_game",
        )
    if tournament.status != Tournament.Status.UPCOMING or now >= tournament.entries_close_at:
        raise ValidationError("entries to this tournament have closed", code="closed")
    if now < tournament.entries_open_at:
        raise ValidationError(
            f"entries open at {tournament.entries_open_at:%Y-%m-%d %H:%M} UTC", code="not_open"
        )
    if not tournament.open_to_all and not tournament.invited.filter(pk=user.pk).exists():
        raise ValidationError("this tournament is by invitation only", code="not_invited")
    if bot.current_version_id is None:
        raise ValidationError(f"{bot.name} has no accepted version yet", code="not_accepted")
    if bot.is_retired:
        raise ValidationError(f"{bot.name} is retired: return it to its ladder first", "retired")
    if Entry.objects.filter(tournament=tournament, bot=bot).exists():
        raise ValidationError(f"{bot.name} is already entered", code="already_entered")
    if not bot.is_house:
        entered = Entry.objects.filter(tournament=tournament, bot__owner=bot.owner).exclude(
            bot__kind=Bot.Kind.HOUSE
        )
        if entered.exists():
            raise ValidationError(
                f"you have entered {entered[0].bot.name} already: one bot of an owner a"
                " tournament, so that no table seats two of them",
                code="owner_entered",
            )


def tournament_enter(
    *, user: User, tournament: Tournament, bot: Bot, now: datetime | None = None
) -> Entry:
    """Enter `bot`; its version is the one current at the entry deadline."""
    try:
        with transaction.atomic():
            # Locked, so that two entries of one owner at once cannot both pass the check.
            Tournament.objects.select_for_update().get(pk=tournament.pk)
            tournament_entry_check(user=user, tournament=tournament, bot=bot, now=now)
            return Entry.objects.create(tournament=tournament, bot=bot)
    except IntegrityError:
        raise ValidationError(f"{bot.name} is already entered", code="already_entered") from None


@transaction.atomic
def tournament_freeze(*, tournament_id: int, now: datetime | None = None) -> bool:
    """At the deadline: fix each entry's version and number the field by rating.

    Entries whose bot has no accepted version are dropped. A field the format
    cannot seat cancels the tournament, with the reason. False if not due.
    """
    now = now or timezone.now()
    tournament = Tournament.objects.select_for_update().get(id=tournament_id)
    if (
        tournament.status != Tournament.Status.UPCOMING
        or tournament.frozen_at is not None
        or now < tournament.entries_close_at
    ):
        return False
    entries = list(tournament.entries.select_related("bot"))
    playing = [entry for entry in entries if entry.bot.current_version_id is not None]
    Entry.objects.filter(pk__in=[e.pk for e in entries if e not in playing]).delete()
    playing.sort(key=lambda entry: (-entry.bot.rating, entry.created_at, entry.pk))
    for number, entry in enumerate(playing):
        entry.number = number
        entry.version_id = entry.bot.current_version_id
    Entry.objects.bulk_update(playing, ["number", "version"])
    tournament.frozen_at = now
    try:
        tournament.event(len(playing))
    except TournamentError as error:
        tournament.status = Tournament.Status.CANCELLED
        tournament.cancel_reason = str(error)
        tournament.finished_at = now
    tournament.save()
    return True


def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """At the start time, with the field frozen: running, and the first tables sent."""
    now = now or timezone.now()
    started = Tournament.objects.filter(
        id=tournament_id,
        status=Tournament.Status.UPCOMING,
        frozen_at__isnull=False,
        starts_at__lte=now,
    ).update(status=Tournament.Status.RUNNING)
    if started:
        tournament_advance(tournament_id=tournament_id, now=now)
    return bool(started)


@transaction.atomic
def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> list[TournamentTable]:
    """Record finished tables, then create the tables the format names next (at most
    `TAVOLO_TOURNAMENT_BATCH` waiting at once); finish the tournament when none are left.

    Returns the tables created.
    """
    tournament = (
        Tournament.objects.select_for_update().select_related("ladder").get(id=tournament_id)
    )
    if tournament.status != Tournament.Status.RUNNING:
        return []
    tables = list(tournament.tables.select_related("match"))
    versions = _frozen_versions(tournament)
    _tables_settle(tournament=tournament, tables=tables, versions=versions)
    if tournament.status != Tournament.Status.RUNNING:
        return []
    results = [table_result(table) for table in tables if table.places is not None]
    upcoming = tournament.event(len(versions)).next_tables(results)
    known = {table.key for table in tables}
    room = settings.TAVOLO_TOURNAMENT_BATCH - sum(table.places is None for table in tables)
    fresh = [table for table in upcoming if table.key not in known][: max(room, 0)]
    matches = _matches_create(
        tournament=tournament, tables=[table.seats for table in fresh], versions=versions
    )
    created = TournamentTable.objects.bulk_create(
        TournamentTable(
            tournament=tournament,
            key=table.key,
            round=table.round,
            stage=table.stage,
            series=table.series,
            game=table.game,
            seats=list(table.seats),
            match=match,
        )
        for table, match in zip(fresh, matches, strict=True)
    )
    if not upcoming:
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = now or timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
    return created


def _frozen_versions(tournament: Tournament) -> dict[int, BotVersion]:
    """Each entrant number's frozen version."""
    entries = tournament.entries.exclude(number=None).select_related("version")
    return {
        entry.number: entry.version
        for entry in entries
        if entry.number is not None and entry.version is not None
    }


def _tables_settle(
    *, tournament: Tournament, tables: list[TournamentTable], versions: dict[int, BotVersion]
) -> None:
    """Copy finished matches' places onto their tables; give failed ones a new match.

    A table whose matches failed `TABLE_ATTEMPTS` times cancels the tournament.
    """
    finished = [
        table
        for table in tables
        if table.places is None
        and table.match is not None
        and table.match.status == Match.Status.FINISHED
    ]
    places: dict[int | None, list[int | None]] = {}  # match id -> places, all set once finished
    for match_id, place in (
        MatchSeat.objects.filter(match_id__in=[table.match_id for table in finished])
        .order_by("match_id", "seat")
        .values_list("match_id", "place")
    ):
        places.setdefault(match_id, []).append(place)
    for table in finished:
        table.places = places[table.match_id]
    TournamentTable.objects.bulk_update(finished, ["places"])
    lost = [
        table
        for table in tables
        if table.places is None
        and (table.match is None or table.match.status == Match.Status.FAILED)
    ]
    if any(table.attempts >= TABLE_ATTEMPTS for table in lost):
        unplayable = next(table for table in lost if table.attempts >= TABLE_ATTEMPTS)
        tournament.status = Tournament.Status.CANCELLED
        tournament.cancel_reason = f"table {unplayable.key} could not be played"
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "cancel_reason", "finished_at"])
        logger.error("tournament %s cancelled: %s", tournament.pk, tournament.cancel_reason)
        return
    matches = _matches_create(
        tournament=tournament, tables=[table.seats for table in lost], versions=versions
    )
    for table, match in zip(lost, matches, strict=True):
        table.match = match
        table.attempts += 1
    TournamentTable.objects.bulk_update(lost, ["match", "attempts"])


def _matches_create(
    *, tournament: Tournament, tables: list[Sequence[int]], versions: dict[int, BotVersion]
) -> list[Match]:
    """A tournament match for each table of entrant numbers, sent ahead of ladder matches."""
    if not tables:
        return []
    matches = matches_create(
        ladder=tournament.ladder,
        kind=Match.Kind.TOURNAMENT,
        tables=[[versions[entrant] for entrant in seats] for seats in tables],
        enqueue=False,
    )
    tournament_matches_enqueue(match_ids=[match.pk for match in matches])
    return matches


def tournament_matches_enqueue(*, match_ids: list[int]) -> None:
    """Send tournament matches ahead of the ladders' matches, once the transaction commits."""
    matches_send(match_ids=match_ids, kind=Match.Kind.TOURNAMENT)


def tournaments_tick(*, now: datetime | None = None) -> None:
    """Freeze fields at their deadline, start events at their time, advance running ones."""
    now = now or timezone.now()
    for tournament_id in Tournament.objects.filter(
        status=Tournament.Status.UPCOMING, frozen_at__isnull=True, entries_close_at__lte=now
    ).values_list("id", flat=True):
        tournament_freeze(tournament_id=tournament_id, now=now)
    for tournament_id in Tournament.objects.filter(
        status=Tournament.Status.UPCOMING, frozen_at__isnull=False, starts_at__lte=now
    ).values_list("id", flat=True):
        tournament_start(tournament_id=tournament_id, now=now)
    for tournament_id in Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list(
        "id", flat=True
    ):
        tournament_advance(tournament_id=tournament_id, now=now)
