"""Bots and their versions.

A `Bot` is a name on one ladder, owned by a user (or, for a house bot, by the
system user). Each upload makes an immutable `BotVersion`; the bot's current
version is the latest accepted one, and only it plays ranked matches.

The rating lives on the bot: a new version starts from its predecessor's
rating, with its count of rated games (which sets how fast it moves) reset.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from arena.ratings import INITIAL_RATING
from ladders.models import Ladder


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
    rating = models.FloatField(default=INITIAL_RATING)
    games = models.PositiveIntegerField(
        default=0, help_text="Rated games played by the current version."
    )
    last_scheduled_at = models.DateTimeField(
        null=True, blank=True, help_text="When matchmaking last seated this bot."
    )
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

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique")
        ]
        indexes = [models.Index(fields=["status", "qualification_requested_at"])]
        ordering = ["bot", "-number"]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"
