"""Give existing versions and rating changes the state the falling-K Elo gave them.

Each version's rating is its last rated match's (the bot's own for its current
version), its games are its rated matches, and it started where its first
rated match found it. Deviations are the old band's half, and each past
change is split by opponent with the same Elo maths that made it.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from arena.ratings import Rating
from arena.ratings.elo import FallingKElo


def old_deviation(games: int) -> float:
    return FallingKElo().band(Rating(games=games)) / 2


def changes_split(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    RatingChange = apps.get_model("matches", "RatingChange")
    MatchSeat = apps.get_model("matches", "MatchSeat")
    by_match = defaultdict(list)
    for change in RatingChange.objects.order_by("match_id", "id"):
        by_match[change.match_id].append(change)
    for match_id, changes in by_match.items():
        seats = list(MatchSeat.objects.filter(match_id=match_id).order_by("seat"))
        by_version = {change.version_id: change for change in changes}
        if any(seat.bot_version_id not in by_version or seat.place is None for seat in seats):
            continue
        rated = FallingKElo().rate(
            [
                Rating(
                    by_version[s.bot_version_id].before,
                    0.0,
                    by_version[s.bot_version_id].games_before,
                )
                for s in seats
            ],
            [seat.place for seat in seats],
        )
        for change in changes:
            own = [
                r
                for seat, r in zip(seats, rated, strict=True)
                if seat.bot_version_id == change.version_id
            ]
            change.deviation_before = old_deviation(change.games_before)
            change.deviation_after = old_deviation(change.games_before + 1)
            change.versus = [
                {
                    "seat": other.seat,
                    "bot_id": other.bot_id,
                    "points": fmean(r.versus[index] for r in own),
                }
                for index, other in enumerate(seats)
                if other.bot_version_id != change.version_id
            ]
            change.save(update_fields=["deviation_before", "deviation_after", "versus"])


def versions_rate(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Bot = apps.get_model("bots", "Bot")
    BotVersion = apps.get_model("bots", "BotVersion")
    RatingChange = apps.get_model("matches", "RatingChange")
    for bot in Bot.objects.all():
        bot.deviation = old_deviation(bot.games)
        bot.save(update_fields=["deviation"])
        for version in BotVersion.objects.filter(bot=bot):
            history = list(
                RatingChange.objects.filter(version=version).order_by("created_at", "id")
            )
            if version.pk == bot.current_version_id:
                version.rating, version.games = bot.rating, bot.games
            elif history:
                version.rating, version.games = history[-1].after, len(history)
            else:
                version.rating, version.games = bot.rating, 0
            version.deviation = old_deviation(version.games)
            version.start_rating = history[0].before if history else version.rating
            version.start_deviation = old_deviation(0)
            version.save(
                update_fields=["rating", "deviation", "games", "start_rating", "start_deviation"]
            )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0004_version_ratings"),
        ("bots", "0002_version_ratings"),
    ]

    operations = [
        migrations.RunPython(changes_split, migrations.RunPython.noop),
        migrations.RunPython(versions_rate, migrations.RunPython.noop),
    ]
