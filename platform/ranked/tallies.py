"""Each bot's ranked record and head-to-head, summed up as its matches finish.

`tally_ranked_match` runs inside `match_finish`'s transaction, after the ratings
moved, while the bots' rows are locked: two finishes never count into the same
figures at once, and a match is counted exactly when it is rated. It costs two
statements: the bots' summaries, read with their locked rows, are written back
in one upsert, and the match's head-to-head is added to the stored figures in
another, without reading them. The figures
(`BotSummary`, `HeadToHeadSummary`) are what the ladder and the bot's page read,
so a page costs the same after 100 matches or 100,000.

`tallies_rebuild` sums every finished ranked match again by the same rules, for
data that did not come through `match_finish` (a migration, a bulk load).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.apps import apps as installed_apps
from django.apps.registry import Apps
from django.db import connection

from bots.models import Bot
from matches.models import Match, MatchSeat
from ranked.models import RatingChange

RECENT_RATINGS = 30
"""Ratings kept for a standings line's sparkline: the bot's latest."""

SAVE_BATCH = 2000

SUMMARY_FIGURES = ["played", "wins", "last_played", "places", "recent_ratings"]
PAIR_FIGURES = ["matches", "ahead", "behind"]


class Tallies:
    """Figures being summed: one summary per bot, from its stored one on, and the
    head-to-head counted here, (bot, opponent) -> [matches, ahead, behind], which
    `save` adds to the stored figures.

    Works on the models of `apps` (a migration passes its historical ones).
    """

    def __init__(self, apps: Apps, summaries: Iterable[Any]) -> None:
        self.summary_model = apps.get_model("ranked", "BotSummary")
        self.pair_model = apps.get_model("ranked", "HeadToHeadSummary")
        self.summaries = {summary.bot_id: summary for summary in summaries}
        self.pairs: dict[tuple[int, int], list[int]] = {}

    def count_match(self, seats: Sequence[tuple[int, int]], finished_at: datetime) -> None:
        """Count a finished ranked match from its seats' (bot id, place).

        A bot in several seats of one table (a house bot) plays the match once,
        and wins it if any of its seats finished first; each of its seats counts
        a place, and each pair of seats of different bots counts in head-to-head.
        """
        for bot_id in {bot_id for bot_id, _ in seats}:
            summary = self._summary(bot_id)
            summary.played += 1
            summary.wins += any(place == 1 for own, place in seats if own == bot_id)
            if summary.last_played is None or finished_at > summary.last_played:
                summary.last_played = finished_at
        for bot_id, place in seats:
            places = self._summary(bot_id).places
            places[str(place)] = places.get(str(place), 0) + 1
            for opponent_id, opponent_place in seats:
                if opponent_id == bot_id:
                    continue
                pair = self.pairs.setdefault((bot_id, opponent_id), [0, 0, 0])
                pair[0] += 1
                pair[1] += place < opponent_place
                pair[2] += place > opponent_place

    def count_rating(self, bot_id: int, after: float) -> None:
        """Add a rating the bot reached to its latest ones."""
        summary = self._summary(bot_id)
        summary.recent_ratings = [*summary.recent_ratings, after][-RECENT_RATINGS:]

    def save(self) -> None:
        """Write the summaries in one upsert, and add the head-to-head to the stored one."""
        self.summary_model.objects.bulk_create(
            self.summaries.values(),
            update_conflicts=True,
            unique_fields=["bot"],
            update_fields=SUMMARY_FIGURES,
            batch_size=SAVE_BATCH,
        )
        rows = [(*pair, *figures) for pair, figures in self.pairs.items()]
        for start in range(0, len(rows), SAVE_BATCH):
            self._pairs_add(rows[start : start + SAVE_BATCH])

    def _pairs_add(self, rows: list[tuple[int, ...]]) -> None:
        """INSERT ... ON CONFLICT DO UPDATE adding to the figures, as SQLite and PostgreSQL
        both say it (Django's upsert can only replace them)."""
        quote = connection.ops.quote_name
        table = quote(self.pair_model._meta.db_table)
        columns = ", ".join(map(quote, ["bot_id", "opponent_id", *PAIR_FIGURES]))
        row = f"({', '.join(['%s'] * (2 + len(PAIR_FIGURES)))})"
        added = ", ".join(
            f"{quote(figure)} = {table}.{quote(figure)} + excluded.{quote(figure)}"
            for figure in PAIR_FIGURES
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * len(rows))} "
                f"ON CONFLICT ({quote('bot_id')}, {quote('opponent_id')}) DO UPDATE SET {added}",
                [value for values in rows for value in values],
            )

    def _summary(self, bot_id: int) -> Any:
        if bot_id not in self.summaries:
            self.summaries[bot_id] = self.summary_model(bot_id=bot_id, places={})
        return self.summaries[bot_id]


def tally_ranked_match(
    *, match: Match, seats: list[MatchSeat], changes: list[RatingChange], bots: Iterable[Bot]
) -> None:
    """Count a ranked match that has just been rated into its bots' figures.

    The caller holds the `bots`' rows locked, read with their summaries
    (`ranked.finish.ranked_match_rate`).
    """
    summaries = [bot.summary for bot in bots if hasattr(bot, "summary")]
    tallies = Tallies(installed_apps, summaries)
    tallies.count_match(
        [(seat.bot_id, seat.place) for seat in seats],  # type: ignore[misc]  # every seat placed
        match.finished_at,  # type: ignore[arg-type]  # set by match_finish
    )
    for change in changes:
        tallies.count_rating(change.bot_id, change.after)
    tallies.save()


def tallies_rebuild(apps: Apps = installed_apps) -> None:
    """Sum every finished ranked match and rating change again, from scratch."""
    seat_model = apps.get_model("matches", "MatchSeat")
    change_model = apps.get_model("ranked", "RatingChange")
    apps.get_model("ranked", "BotSummary").objects.all().delete()
    apps.get_model("ranked", "HeadToHeadSummary").objects.all().delete()
    tallies = Tallies(apps, [])
    seats = (
        seat_model.objects.filter(
            match__kind=Match.Kind.RANKED, match__status=Match.Status.FINISHED, place__isnull=False
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_id", "place", "match__finished_at")
    )
    for _, rows in groupby(seats.iterator(chunk_size=SAVE_BATCH), key=itemgetter(0)):
        table = list(rows)
        tallies.count_match([(bot_id, place) for _, bot_id, place, _ in table], table[0][3])
    changes = change_model.objects.order_by("id").values_list("bot_id", "after")
    for bot_id, after in changes.iterator(chunk_size=SAVE_BATCH):
        tallies.count_rating(bot_id, after)
    tallies.save()
