"""Matches: running them, recording results and ratings, matchmaking and challenges."""
