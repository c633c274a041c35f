"""Bots and their versions.

A `Bot` is a name on one ladder, owned by a user (or, for a house bot, by the
system user). Each upload makes an immutable `BotVersion`; the bot's current
version is the latest accepted one, and only it plays ranked matches.

A bot with an accepted version can be retired (`bots.services.bot_retire`):
it keeps its matches and ratings but leaves the ladder's table and is no longer
scheduled, until its owner returns it or a new version of it is accepted.

Each version has its own rating (value, deviation, rated games): a ranked
match is rated with the state of the versions that played it, even if a newer
version has been accepted since. A new version starts where the rating
system's `successor` puts it: its bot's rating, with its doubt widened; where
it started is kept. The bot holds a copy of its current version's rating, for
ordering the ladder and for matchmaking.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from arena.ratings import INITIAL_RATING, Rating
from ladders.models import Ladder
from ladders.ratings import initial_deviation


class Bot(models.Model):
    """A bot on a ladder, with the rating of its current version."""

    class Kind(models.TextChoices):
        USER = "user"
        HOUSE = "house"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="bots")
    ladder = models.ForeignKey(Ladder, models.PROTECT, related_name="bots")
    name = models.CharField(max_length=40)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.USER)
    current_version = models.ForeignKey(
        "BotVersion", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    rating = models.FloatField(default=INITIAL_RATING, help_text="The current version's.")
    deviation = models.FloatField(default=initial_deviation, help_text="The current version's.")
    games = models.PositiveIntegerField(
        default=0, help_text="Rated games played by the current version."
    )
    last_scheduled_at = models.DateTimeField(
        null=True, blank=True, help_text="When matchmaking last seated this bot."
    )
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="When it was retired; empty while it plays."
    )
    retired_reason = models.TextField(blank=True, help_text="Why it was retired.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["ladder", "name"], name="bot_name_unique_per_ladder")
        ]
        ordering = ["ladder", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.ladder.slug})"

    @property
    def is_house(self) -> bool:
        return self.kind == self.Kind.HOUSE

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None

    @property
    def rating_state(self) -> Rating:
        """The current version's rating."""
        return Rating(self.rating, self.deviation, self.games)


class BotVersion(models.Model):
    """One uploaded source file of a bot; never changed once stored."""

    class Status(models.TextChoices):
        PENDING = "pending"
        QUALIFYING = "qualifying"
        ACCEPTED = "accepted"
        REJECTED = "rejected"

    bot = models.ForeignKey(Bot, models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    source = models.TextField(blank=True, help_text="Empty for a house bot.")
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    uploaded_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(blank=True, help_text="Why it was rejected, or what it waits for.")
    qualification_log = models.TextField(blank=True, help_text="Shown to the owner only.")
    qualification_requested_at = models.DateTimeField(null=True, blank=True)
    qualification_started_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    rating = models.FloatField(default=INITIAL_RATING)
    deviation = models.FloatField(default=initial_deviation)
    games = models.PositiveIntegerField(default=0, help_text="Rated games this version played.")
    start_rating = models.FloatField(default=INITIAL_RATING, help_text="Where it started.")
    start_deviation = models.FloatField(default=initial_deviation)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique")
        ]
        indexes = [models.Index(fields=["status", "qualification_requested_at"])]
        ordering = ["bot", "-number"]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def rating_state(self) -> Rating:
        return Rating(self.rating, self.deviation, self.games)

    @property
    def start_state(self) -> Rating:
        return Rating(self.start_rating, self.start_deviation, 0)

    def rating_set(self, rating: Rating) -> None:
        """Take `rating` as this version's rating (not saved)."""
        self.rating, self.deviation, self.games = rating.value, rating.deviation, rating.games
