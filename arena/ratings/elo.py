"""Elo with a falling K: the first system Tavolo used, kept as a choice and a baseline.

A match of N bots counts as every pair of them playing one game: bot i scores
1 against each bot placed behind it, 1/2 against each bot level with it and 0
against each bot ahead of it. Its change is

    K(n_i) / (N - 1) * sum over j != i of (S_ij - E_ij),
    E_ij = 1 / (1 + 10 ** ((R_j - R_i) / 400)),

with K(n) = max(8, 720 / (1 + n)) falling with n, the games the version has
played. The band is a rule of thumb, not a measured uncertainty: it shrinks
with games played and never goes below 2 x 21 points.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from arena.ratings.base import (
    Past,
    RatedSeat,
    Rating,
    check_result,
    expected_score,
    pairwise_score,
)

PROVISIONAL_GAMES = 20
K_CEILING = 720.0
K_FLOOR = 8.0
BAND_SCALE = 2 * 204.0
BAND_FLOOR = 2 * 21.0


def k_factor(games: int) -> float:
    """How far one match can move a version that has played `games` rated games."""
    return max(K_FLOOR, K_CEILING / (1 + games))


class FallingKElo:
    """Pairwise Elo with K(n); a new version keeps the value and starts its games at 0."""

    name = "elo"

    def initial(self) -> Rating:
        return self._at(Rating().value, 0)

    def successor(self, rating: Rating) -> Rating:
        return self._at(rating.value, 0)

    def rate(
        self,
        ratings: Sequence[Rating],
        places: Sequence[int],
        pasts: Sequence[Past] | None = None,
        versions: Sequence[Hashable] | None = None,
    ) -> list[RatedSeat]:
        check_result(ratings, places, pasts, versions)
        owners: Sequence[Hashable] = range(len(ratings)) if versions is None else versions
        count = len(ratings)
        seats = []
        for i, rating in enumerate(ratings):
            step = k_factor(rating.games) / (count - 1)
            versus = tuple(
                0.0
                if owners[j] == owners[i]
                else step
                * (pairwise_score(places[i], places[j]) - expected_score(rating.value, other.value))
                for j, other in enumerate(ratings)
            )
            seats.append(RatedSeat(self._at(rating.value + sum(versus), rating.games + 1), versus))
        return seats

    def band(self, rating: Rating) -> float:
        return max(BAND_FLOOR, BAND_SCALE / math.sqrt(1 + rating.games))

    def is_provisional(self, rating: Rating) -> bool:
        return rating.games < PROVISIONAL_GAMES

    def _at(self, value: float, games: int) -> Rating:
        return Rating(value, self.band(Rating(value, 0.0, games)) / 2, games)
