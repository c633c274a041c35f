"""Each version's ranked results against each opponent version, summed as matches finish.

The rating system re-reads a version's results each time it plays, each
against its opponent's current rating (`arena.ratings.refit`); per pair of
versions the games and the points they scored are all it needs, so a match's
finish reads the seated versions' records in one query, however many games
they hold, and writes back the ones the match changed in one upsert.

Records are kept by `match_finish` while the seated versions' rows are
locked: every record written belongs to a locked version, so two finishes
never write one record at once, and a match counts exactly when it is rated.
`version_records_rebuild` sums every rated match again, for data that did not come
through `match_finish` (a migration).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

from django.apps import apps as installed_apps
from django.apps.registry import Apps

from arena.ratings import Past, Rating, Record, table_results
from bots.models import BotVersion
from ranked.models import VersionRecord

SAVE_BATCH = 2000
RATING_FIELDS = ["rating", "deviation", "games"]


class VersionResults:
    """Records being summed: (version, opponent version) -> [games, points], from the
    stored ones on; `save` writes those a match changed.

    Works on the models of `apps` (a migration passes its historical ones).
    """

    def __init__(self, apps: Apps, stored: Iterable[Any]) -> None:
        self.model = apps.get_model("ranked", "VersionRecord")
        self.totals = {(row.version_id, row.opponent_id): [row.games, row.points] for row in stored}
        self.changed: set[tuple[int, int]] = set()

    def count_match(self, seats: Sequence[tuple[int, int]]) -> None:
        """Count a rated match from its seats' (version id, place): every ordered pair
        of seats of two different versions (a house bot's own seats do not count)."""
        versions = [version for version, _ in seats]
        for seat, other, points in table_results([place for _, place in seats], versions):
            pair = (versions[seat], versions[other])
            total = self.totals.setdefault(pair, [0, 0.0])
            total[0] += 1
            total[1] += points
            self.changed.add(pair)

    def save(self) -> None:
        """Write the changed records in one upsert (by (version, opponent))."""
        self.model.objects.bulk_create(
            [
                self.model(version_id=pair[0], opponent_id=pair[1], games=games, points=points)
                for pair in sorted(self.changed)
                for games, points in [self.totals[pair]]
            ],
            update_conflicts=True,
            unique_fields=["version", "opponent"],
            update_fields=["games", "points"],
            batch_size=SAVE_BATCH,
        )
        self.changed.clear()


class StoredRecord(NamedTuple):
    """A stored record as the finish reads it, with its opponent's current rating."""

    version_id: int
    opponent_id: int
    games: int
    points: float
    opponent: Rating


def version_records_read(version_ids: Iterable[int]) -> list[StoredRecord]:
    """The versions' records, each with its opponent's current rating: one query, read
    as plain rows (a 4-seat finish may read a few hundred)."""
    rows = VersionRecord.objects.filter(version_id__in=list(version_ids)).values_list(
        "version_id",
        "opponent_id",
        "games",
        "points",
        *(f"opponent__{field}" for field in RATING_FIELDS),
    )
    return [
        StoredRecord(version, opponent, games, points, Rating(value, deviation, played))
        for version, opponent, games, points, value, deviation, played in rows
    ]


def version_pasts(
    versions: Iterable[BotVersion], records: Iterable[StoredRecord]
) -> dict[int, Past]:
    """Each version's start and its results against its opponents' current ratings."""
    by_version: dict[int, list[Record]] = {version.pk: [] for version in versions}
    for row in records:
        by_version[row.version_id].append(Record(row.opponent, row.games, row.points))
    return {
        version.pk: Past(version.start_state, tuple(by_version[version.pk])) for version in versions
    }


def version_records_rebuild(apps: Apps = installed_apps) -> None:
    """Sum every rated match again, from scratch: every finished ranked match that has
    rating changes."""
    seat_model = apps.get_model("matches", "MatchSeat")
    change_model = apps.get_model("ranked", "RatingChange")
    apps.get_model("ranked", "VersionRecord").objects.all().delete()
    records = VersionResults(apps, [])
    rated = change_model.objects.values("match_id")
    seats = (
        seat_model.objects.filter(match_id__in=rated, place__isnull=False)
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_version_id", "place")
    )
    for _, rows in groupby(seats.iterator(chunk_size=SAVE_BATCH), key=itemgetter(0)):
        records.count_match([(version_id, place) for _, version_id, place in rows])
    records.save()
