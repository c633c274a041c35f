"""Tournaments, their entries and their tables.

A tournament is played on a ladder's rules (game, variant, options, seats) but
never touches the ladder's ratings. Its format (`arena.tournaments`) decides the
tables from the results; each table is played as a match of kind
``tournament`` and its places are copied onto the table once, when the
tournament advances, so nothing is counted twice.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from arena.runner import new_seed
from arena.tournaments import ELIMINATIONS, FORMAT_NAMES, Format, TournamentError, make_format
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match

_cached_format = lru_cache(maxsize=32)(make_format)
"""Formats are pure and their schedules fixed by their parameters: a process builds each once."""


def _new_seed() -> str:
    return format(new_seed(), "032x")


class Tournament(models.Model):
    """An event with a field, a format, a schedule and a final standing."""

    class Status(models.TextChoices):
        UPCOMING = "upcoming"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    slug = models.SlugField(max_length=50, unique=True)
    name = models.CharField(max_length=100)
    ladder = models.ForeignKey(
        Ladder,
        models.PROTECT,
        related_name="tournaments",
        help_text="Game, rules and seats per table; its ratings are untouched.",
    )
    format = models.CharField(max_length=12, choices=[(name, name) for name in FORMAT_NAMES])
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss only.")
    repeat = models.PositiveSmallIntegerField(
        default=1, help_text="Plays of each round-robin table (and of a group final)."
    )
    best_of = models.PositiveSmallIntegerField(default=1, help_text="Two-seat knockout series.")
    elimination = models.CharField(
        max_length=6, choices=[(name, name) for name in ELIMINATIONS], default="single"
    )
    groups = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Knockout of 3+ seats: groups before the final table."
    )
    points = models.JSONField(
        null=True, blank=True, help_text="Points per place, first to last; empty: K-1 down to 0."
    )
    seed = models.CharField(max_length=32, default=_new_seed, help_text="Hexadecimal.")
    entries_open_at = models.DateTimeField()
    entries_close_at = models.DateTimeField(help_text="Entries' versions are frozen then.")
    starts_at = models.DateTimeField()
    open_to_all = models.BooleanField(default=True, help_text="Otherwise by invitation only.")
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="tournament_invitations"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING)
    frozen_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def public_seed(self) -> str | None:
        """The seed once it can no longer help anyone: after the tournament finished."""
        return self.seed if self.status == self.Status.FINISHED else None

    def event(self, entrants: int) -> Format:
        """The format for `entrants` entrants; raise TournamentError if it cannot run."""
        return _cached_format(
            self.format,
            entrants=entrants,
            seats=self.ladder.seats,
            rounds=self.rounds,
            repeat=self.repeat,
            best_of=self.best_of,
            elimination=self.elimination,
            groups=self.groups,
            seed=int(self.seed, 16),
            points=None if self.points is None else tuple(self.points),
        )

    def clean(self) -> None:
        """Refuse a window out of order or a format that could not run with a full table."""
        if None not in (self.entries_open_at, self.entries_close_at, self.starts_at) and not (
            self.entries_open_at < self.entries_close_at <= self.starts_at
        ):
            raise ValidationError("entries must open before they close, and close by the start")
        if self.points is not None and (
            not isinstance(self.points, list)
            or not all(isinstance(value, int | float) for value in self.points)
        ):
            raise ValidationError({"points": "points must be a list of numbers, first to last"})
        try:
            int(self.seed, 16)
        except (TypeError, ValueError):
            raise ValidationError({"seed": "the seed must be hexadecimal"}) from None
        if self.ladder_id is None:
            return
        try:
            self.event(max(self.ladder.seats * (self.groups or 1), 2))
        except TournamentError as error:
            raise ValidationError(str(error)) from None


class Entry(models.Model):
    """A bot in a tournament; `version` and `number` are set at the entry deadline."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="entries")
    bot = models.ForeignKey(Bot, models.PROTECT, related_name="tournament_entries")
    version = models.ForeignKey(
        BotVersion, models.PROTECT, null=True, blank=True, related_name="tournament_entries"
    )
    number = models.PositiveIntegerField(
        null=True, blank=True, help_text="The entrant's seed: 0 is the highest rated."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="entry_once_per_bot"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
        ]
        ordering = ["tournament", "number", "created_at"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.bot.name} in {self.tournament.name}"


class TournamentTable(models.Model):
    """One table of the schedule: its entrants by seat, its match and, once played, its places."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="tables")
    key = models.CharField(max_length=60)
    round = models.PositiveIntegerField()
    stage = models.CharField(max_length=20, blank=True)
    series = models.PositiveIntegerField()
    game = models.PositiveIntegerField()
    seats = models.JSONField(help_text="Entrant numbers in seat order.")
    match = models.ForeignKey(
        Match, models.SET_NULL, null=True, blank=True, related_name="tournament_tables"
    )
    attempts = models.PositiveSmallIntegerField(default=1, help_text="Matches made for it.")
    places = models.JSONField(null=True, blank=True, help_text="Per seat, once played.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="table_key_unique")
        ]
        ordering = ["tournament", "round", "stage", "series", "game"]

    def __str__(self) -> str:
        return f"table {self.key} of {self.tournament.name}"
