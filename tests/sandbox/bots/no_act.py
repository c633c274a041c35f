"""Defines everything but act."""

act = "not a function"
