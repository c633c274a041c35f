"""Reads of tournaments: lists by status, entrants, the schedule, standings, the replays' zip."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404

from arena.tournaments import Standing, Table, TableResult
from arena.tournaments.round_robin import RoundRobin
from matches.models import Match
from matches.selectors import match_replay_bytes
from tournaments.models import Entry, Tournament, TournamentTable


def tournament_list(*, status: str | None = None) -> QuerySet[Tournament]:
    """Tournaments, latest start first, optionally of one status."""
    tournaments = Tournament.objects.select_related("ladder")
    if status is not None:
        tournaments = tournaments.filter(status=status)
    return tournaments


def tournament_get(*, slug: str) -> Tournament:
    """One tournament, or Http404."""
    found = tournament_list().filter(slug=slug).first()
    if found is None:
        raise Http404(f"there is no tournament {slug!r}")
    return found


def tournament_entries(*, tournament: Tournament) -> list[Entry]:
    """The entries, by seed once frozen, else in the order they came."""
    return list(
        tournament.entries.select_related("bot__owner", "version").order_by("number", "created_at")
    )


def tournament_pairing(*, tournament: Tournament, entrants: int) -> str | None:
    """How a started round-robin's tables bring its entrants together, in words
    (`RoundRobin.plan`): every combination, an exact design, or the approximate
    schedule with its spread. None for other formats and before the field is fixed."""
    started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    if tournament.format != "round-robin" or not started:
        return None
    event = tournament.event(entrants)
    return event.plan.description if isinstance(event, RoundRobin) else None


def tournament_tables(*, tournament: Tournament) -> list[TournamentTable]:
    """The schedule so far: every table made, in round order, with its match."""
    return list(tournament.tables.select_related("match"))


def table_result(table: TournamentTable) -> TableResult:
    """A table of the schedule as its format reads it back (places empty until played)."""
    return TableResult(
        Table(table.round, table.stage, table.series, table.game, tuple(table.seats)),
        tuple(table.places or ()),
    )


@dataclass
class StandingLine:
    """A standing with the entry it belongs to."""

    standing: Standing
    entry: Entry


def tournament_standings(*, tournament: Tournament) -> list[StandingLine]:
    """The live standings (final once the tournament has finished); empty before the start."""
    if tournament.frozen_at is None or tournament.status == Tournament.Status.CANCELLED:
        return []
    entries = {entry.number: entry for entry in tournament_entries(tournament=tournament)}
    results = [table_result(table) for table in tournament.tables.exclude(places=None)]
    standings = tournament.event(len(entries)).standings(results)
    return [StandingLine(line, entries[line.entrant]) for line in standings]


def tournament_replays_zip(*, tournament: Tournament) -> bytes:
    """Every finished table's replay in one zip, named by table; Http404 if there are none."""
    tables = tournament.tables.filter(match__status=Match.Status.FINISHED).select_related("match")
    buffer = io.BytesIO()
    count = 0
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for table in tables:
            if table.match is None or not table.match.replay:
                continue
            replay = match_replay_bytes(match=table.match)
            archive.writestr(f"{table.key}-match{table.match_id}.json.gz", replay)
            count += 1
    if not count:
        raise Http404("this tournament has no replays yet")
    return buffer.getvalue()
