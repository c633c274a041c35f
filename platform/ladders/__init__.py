"""Ladders: one game, variant and table size each, with their house bots."""
