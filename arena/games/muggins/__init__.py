"""Muggins (All Fives dominoes): score multiples of 5 on the ends of one line (RULES.md Part 2)."""

from arena.games.muggins.game import MugginsGame
from arena.games.muggins.state import MugginsState

__all__ = ["MugginsGame", "MugginsState"]
