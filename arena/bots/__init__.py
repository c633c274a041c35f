"""Bots as the match runner sees them: handles that turn observations into actions."""
