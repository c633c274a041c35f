"""Matches, their seats and the pieces of a match being played, for watching it live.

A match is played exactly once from the platform's point of view: a worker
claims it (queued -> running) and holds a lease on it while it plays
(`matches.lease`), and its result, its seats and what its kind sets off
(`matches.finish`) are written together in one transaction keyed by the
match (running -> finished). The seed stays secret until the match has finished.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from bots.models import Bot, BotVersion
from ladders.models import Ladder


class Match(models.Model):
    """One game between the bots in its seats."""

    class Kind(models.TextChoices):
        RANKED = "ranked"
        CHALLENGE = "challenge"
        QUALIFICATION = "qualification"
        TOURNAMENT = "tournament"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"

    ladder = models.ForeignKey(Ladder, models.PROTECT, related_name="matches")
    kind = models.CharField(max_length=14, choices=Kind.choices, default=Kind.RANKED)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    seed = models.CharField(max_length=32, help_text="Hexadecimal; secret until finished.")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenges",
        help_text="Who asked for a challenge.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(help_text="When it was last sent to the workers.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=200, blank=True, help_text="The worker running it.")
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="When its worker last renewed its lease on it."
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    decisions = models.PositiveIntegerField(null=True, blank=True)
    replay = models.FileField(max_length=255, blank=True)
    failure_reason = models.TextField(blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "started_at"]),
            models.Index(fields=["ladder", "kind", "status"]),
            models.Index(fields=["requested_by", "kind", "created_at"]),
            models.Index(fields=["-created_at", "-id"], name="match_newest_first"),
        ]
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.kind} match {self.pk} on {self.ladder.slug}"

    @property
    def ranked(self) -> bool:
        """True if its result moves ladder ratings: only a ranked match's does."""
        return self.kind == self.Kind.RANKED

    @property
    def owner_shared(self) -> bool:
        """True if two seats hold bots of one owner (house bots aside), who could share
        what each knows: matchmaking and tournaments never seat them so, a challenge may,
        and it is unranked."""
        owners = [seat.bot.owner_id for seat in self.seats.all() if not seat.bot.is_house]
        return len(owners) != len(set(owners))

    @property
    def public_seed(self) -> str | None:
        """The seed, once it can no longer help anyone: after the match finished."""
        return self.seed if self.status == self.Status.FINISHED else None


class MatchSeat(models.Model):
    """One bot version's seat in a match and how it fared."""

    match = models.ForeignKey(Match, models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey(Bot, models.PROTECT, related_name="seats")
    bot_version = models.ForeignKey(BotVersion, models.PROTECT, related_name="seats")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    infractions = models.PositiveIntegerField(default=0)
    crashed = models.BooleanField(default=False)
    crash_reason = models.TextField(blank=True)
    infraction_reasons = models.JSONField(
        default=list,
        blank=True,
        help_text='The first infractions, as [{"reason": ..., "decision": from 1}].',
    )
    log = models.FileField(max_length=255, blank=True, help_text="The bot's stderr; owner only.")
    log_entries = models.FileField(
        max_length=255,
        blank=True,
        help_text="JSON: what the bot printed while deciding each decision; owner only.",
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="match_seat_unique")]
        ordering = ["match", "seat"]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id}"


class MatchProgress(models.Model):
    """A piece of the events of a match being played, for watching it live.

    The worker playing the match appends a piece a few times a second, with the
    events since its last piece, so a write costs the same early or late in a
    long match. The first piece (`start` 0) also holds the partial replay's
    header, with the secret seed (to re-simulate the events), so only the public
    view of it is ever shown. The pieces are deleted once the match has finished
    or failed.

    Each piece belongs to one attempt at playing the match: a match whose worker
    was lost is played again from its first event, and the live view reads only
    the pieces of the match's current attempt, never a mix of two runs.
    """

    # No constraint in the database: on PostgreSQL the table is unlogged, so that a write
    # does not wait for the disk, and checking a key in the logged match table would make
    # it wait (Django still deletes the pieces with their match).
    match = models.ForeignKey(Match, models.CASCADE, related_name="progress", db_constraint=False)
    attempt = models.PositiveSmallIntegerField(
        default=0, help_text="The match's attempt (`Match.attempts`) that wrote it."
    )
    start = models.PositiveIntegerField(help_text="The index of its first event in the match.")
    events = models.JSONField(help_text="The events from `start` on, as the worker had them.")
    header = models.JSONField(
        null=True, blank=True, help_text="On the first piece: game, rules, seats and seed."
    )

    class Meta:
        indexes = [
            models.Index(fields=["match", "attempt", "start"], name="match_progress_attempt_order")
        ]

    def __str__(self) -> str:
        return f"progress of match {self.match_id} from event {self.start}"
