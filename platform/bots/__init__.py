"""Bots and their immutable uploaded versions, and qualification."""
