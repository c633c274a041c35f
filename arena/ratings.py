"""Elo ratings for matches of two or more bots: pure maths, no storage.

A match of N bots counts as every pair of them playing one game: bot i scores
1 against each bot placed behind it, 1/2 against each bot level with it and 0
against each bot ahead of it. Its change is

    K(n_i) / (N - 1) * sum over j != i of (S_ij - E_ij),
    E_ij = 1 / (1 + 10 ** ((R_j - R_i) / 400)),

with every rating taken from before the match, and K(n) = max(8, 720 / (1 + n))
falling with n, the games the bot's current version has played: a new version
moves fast, then settles. Dividing by N - 1 makes one match worth about one
game whatever the table size.

The band is the uncertainty shown beside a rating: about two standard
deviations, shrinking with games played but never below 2 x 21 points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

INITIAL_RATING = 1500.0
"""The rating of a new bot."""

PROVISIONAL_GAMES = 20
"""A rating is provisional until its version has played this many rated games."""

K_CEILING = 720.0
K_FLOOR = 8.0
BAND_SCALE = 2 * 204.0
BAND_FLOOR = 2 * 21.0


def k_factor(games: int) -> float:
    """How far one match can move a version that has played `games` rated games."""
    return max(K_FLOOR, K_CEILING / (1 + games))


def expected_score(rating: float, opponent: float) -> float:
    """The score `rating` expects against `opponent` in one pairing, from 0 to 1."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def pairwise_score(place: int, opponent_place: int) -> float:
    """1 for placing ahead (a lower place number), 1/2 for level, 0 for behind."""
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def rating_changes(
    ratings: Sequence[float], places: Sequence[int], games: Sequence[int]
) -> list[float]:
    """Each bot's rating change after one match, in the order given.

    `places` are the match result's places (1 = first; equal numbers are a
    tie) and `games` each bot's rated games before this match.
    """
    count = len(ratings)
    if count < 2:
        raise ValueError("a rated match needs at least two bots")
    if len(places) != count or len(games) != count:
        raise ValueError("ratings, places and games must have one entry per bot")
    changes = []
    for i in range(count):
        surprise = sum(
            pairwise_score(places[i], places[j]) - expected_score(ratings[i], ratings[j])
            for j in range(count)
            if j != i
        )
        changes.append(k_factor(games[i]) / (count - 1) * surprise)
    return changes


def rating_band(games: int) -> float:
    """Half the width of the uncertainty band shown as rating +/- band."""
    return max(BAND_FLOOR, BAND_SCALE / math.sqrt(1 + games))


def is_provisional(games: int) -> bool:
    """True while a version has played too few rated games to trust its rating."""
    return games < PROVISIONAL_GAMES
