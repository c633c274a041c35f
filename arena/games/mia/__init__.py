"""Mia, the dice-bluffing game (RULES.md Part 1): rules, state and built-in bots."""

from arena.games.mia.game import MiaGame
from arena.games.mia.state import MiaState

__all__ = ["MiaGame", "MiaState"]
