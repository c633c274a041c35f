"""The ranked ladder's records: rating changes, version results and bots' tallies.

These tables were created by the matches app and keep its names
(`Meta.db_table`); the ranked app's first migration only took them over.
"""

from __future__ import annotations

from django.db import models

from arena.ratings import Rating
from bots.models import Bot, BotVersion
from matches.models import Match


class RatingChange(models.Model):
    """How one ranked match moved one bot's rating: the rating history."""

    match = models.ForeignKey(Match, models.CASCADE, related_name="rating_changes")
    bot = models.ForeignKey(Bot, models.CASCADE, related_name="rating_changes")
    version = models.ForeignKey(BotVersion, models.CASCADE, related_name="rating_changes")
    before = models.FloatField()
    after = models.FloatField()
    deviation_before = models.FloatField(default=0.0)
    deviation_after = models.FloatField(default=0.0)
    games_before = models.PositiveIntegerField()
    versus = models.JSONField(
        default=list,
        blank=True,
        help_text="Points won against each other seat: a list of {seat, bot_id, points}.",
    )
    earlier = models.FloatField(
        default=0.0,
        help_text="Points from the version's earlier results, read again against its "
        "opponents' current ratings; with `versus` they add up to the change.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "matches_ratingchange"
        constraints = [
            models.UniqueConstraint(fields=["match", "bot"], name="rating_change_once_per_match")
        ]
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.bot.name}: {self.before:.0f} -> {self.after:.0f} in match {self.match_id}"

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def rating_before(self) -> Rating:
        return Rating(self.before, self.deviation_before, self.games_before)

    @property
    def rating_after(self) -> Rating:
        return Rating(self.after, self.deviation_after, self.games_before + 1)

    def versus_named(self) -> list[dict]:
        """`versus` with each opponent's bot name, read from the match's seats."""
        names = {seat.seat: seat.bot.name for seat in self.match.seats.all()}
        return [{**entry, "bot": names.get(entry["seat"], "")} for entry in self.versus]


class VersionRecord(models.Model):
    """A version's ranked results against one opponent version, summed (`ranked.version_results`).

    What the rating system re-reads each time the version plays: with the
    opponent's current rating, these two figures are all that its results say.
    """

    version = models.ForeignKey(BotVersion, models.CASCADE, related_name="records")
    opponent = models.ForeignKey(BotVersion, models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0, help_text="Pairs of seats played against it.")
    points = models.FloatField(default=0.0, help_text="Their score: 1 ahead, 1/2 level, 0 behind.")

    class Meta:
        db_table = "matches_versionrecord"
        constraints = [
            models.UniqueConstraint(
                fields=["version", "opponent"], name="version_record_once_per_opponent"
            ),
            models.CheckConstraint(
                condition=models.Q(points__gte=0, points__lte=models.F("games")),
                name="version_record_points_within_games",
                violation_error_message="A record's points lie between 0 and its games.",
            ),
            models.CheckConstraint(
                condition=~models.Q(version=models.F("opponent")),
                name="version_record_not_against_itself",
                violation_error_message="A version has no record against itself.",
            ),
        ]

    def __str__(self) -> str:
        return f"version {self.version_id} against {self.opponent_id}: {self.points}/{self.games}"


class BotSummary(models.Model):
    """A bot's finished ranked matches, summed up as each one finishes (`ranked.tallies`).

    The ladder's standings and the bot's page read these figures instead of
    every match the bot played.
    """

    bot = models.OneToOneField(Bot, models.CASCADE, primary_key=True, related_name="summary")
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text="Matches with a seat placed first.")
    last_played = models.DateTimeField(null=True, blank=True)
    places = models.JSONField(default=dict, blank=True, help_text='Seats by place: {"1": 12}.')
    recent_ratings = models.JSONField(
        default=list, blank=True, help_text="The latest ratings after a match, oldest first."
    )

    class Meta:
        db_table = "matches_botsummary"

    def __str__(self) -> str:
        return f"summary of bot {self.bot_id}"


class HeadToHeadSummary(models.Model):
    """How often a bot finished ahead of, or behind, one opponent at the same ranked tables."""

    bot = models.ForeignKey(Bot, models.CASCADE, related_name="head_to_head")
    opponent = models.ForeignKey(Bot, models.CASCADE, related_name="+")
    matches = models.PositiveIntegerField(default=0, help_text="Pairs of seats: the bot's, its.")
    ahead = models.PositiveIntegerField(default=0)
    behind = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "matches_headtoheadsummary"
        constraints = [
            models.UniqueConstraint(fields=["bot", "opponent"], name="head_to_head_once_per_pair")
        ]
        indexes = [models.Index(fields=["bot", "-matches"], name="head_to_head_most_met")]

    def __str__(self) -> str:
        return f"bot {self.bot_id} against bot {self.opponent_id}"
