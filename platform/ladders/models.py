"""A ladder: one game, variant, options and table size, ranked on its own."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from arena.engine import Game, RulesError
from arena.games import GAME_NAMES, make_game


class Ladder(models.Model):
    """A ranking of bots that all play the same game with the same rules."""

    slug = models.SlugField(max_length=50, unique=True)
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=20, choices=[(name, name) for name in GAME_NAMES])
    variant = models.CharField(max_length=40, blank=True)
    options = models.JSONField(default=dict, blank=True)
    seats = models.PositiveSmallIntegerField(help_text="Bots at each table.")
    active = models.BooleanField(default=True, help_text="Inactive ladders take no uploads.")
    match_rate = models.PositiveIntegerField(
        default=12, help_text="Ranked matches per minute at most; 0 pauses."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name

    def make_game(self) -> Game:
        """The rules object every match of this ladder is played under."""
        return make_game(self.game, self.seats, self.variant or None, self.options or {})

    def clean(self) -> None:
        """Refuse a game, variant, options or table size that the rules do not allow."""
        if not isinstance(self.options, dict):
            raise ValidationError({"options": "options must be a JSON object"})
        try:
            self.make_game()
        except (RulesError, ValueError, TypeError) as error:
            raise ValidationError(str(error)) from None
