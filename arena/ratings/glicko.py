"""A Bayesian update on the Elo scale: each rating carries its own uncertainty.

A rating is a belief about a version's strength: a value and a deviation
(one standard deviation, in Elo points). After a match of N bots each bot
updates against each other bot as in Glicko (Glickman, 1999), with every
pair of seats counted as one game worth `pair_weight(N)`:

    g_j    = 1 / sqrt(1 + 3 q^2 d_j^2 / pi^2)       (a doubtful opponent says less)
    E_ij   = 1 / (1 + 10 ** (-g_j (R_i - R_j) / 400))
    1/d'^2 = 1 / (d_i^2 + drift^2) + w q^2 sum_j g_j^2 E_ij (1 - E_ij)
    R'     = R_i + d'^2 w q sum_j g_j (S_ij - E_ij)

with q = ln 10 / 400. Each term of the last sum is the points won or lost
against one opponent. The deviation shrinks as evidence comes in; `drift`
keeps it from reaching zero, so a rating can still follow a changing field.
The band is two deviations: about 95% of versions' true strengths lie in it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from arena.ratings.base import LOGISTIC, Past, RatedSeat, Rating, check_result, pairwise_score

GLICKO_G = 3 * LOGISTIC**2 / math.pi**2


@dataclass(frozen=True)
class GlickoBelief:
    """What the Bayesian systems share: a rating is a value and a deviation, a
    new version starts widened from its bot's, the band is two deviations."""

    initial_deviation: float = 420.0
    """The doubt about a new bot: its band is +/- 840 points."""
    new_version_spread: float = 200.0
    """Added (in quadrature) to the bot's deviation when a new version starts."""
    provisional_deviation: float = 80.0
    """A rating is provisional while its deviation is above this."""
    table_exponent: float = 0.4
    """A pair in a table of N counts as 1 / (N - 1) ** table_exponent of a game."""

    def pair_weight(self, seats: int) -> float:
        """What one pair of seats at a table of `seats` counts for, in games."""
        games: float = 1.0 / (seats - 1) ** self.table_exponent
        return games

    def initial(self) -> Rating:
        return Rating(deviation=self.initial_deviation)

    def successor(self, rating: Rating) -> Rating:
        widened = math.hypot(rating.deviation, self.new_version_spread)
        return Rating(rating.value, min(self.initial_deviation, widened), 0)

    def band(self, rating: Rating) -> float:
        return 2.0 * rating.deviation

    def is_provisional(self, rating: Rating) -> bool:
        return rating.deviation > self.provisional_deviation


@dataclass(frozen=True)
class EloScaleGlicko(GlickoBelief):
    """Glicko on the Elo scale, with a multiplayer match counted as weighted pairs."""

    drift: float = 1.0
    """Strength that may change between two matches, in Elo points."""

    name = "glicko"

    def rate(
        self,
        ratings: Sequence[Rating],
        places: Sequence[int],
        pasts: Sequence[Past] | None = None,
        versions: Sequence[Hashable] | None = None,
    ) -> list[RatedSeat]:
        check_result(ratings, places, pasts, versions)
        owners: Sequence[Hashable] = range(len(ratings)) if versions is None else versions
        weight = self.pair_weight(len(ratings))
        dampers = [damper(r.deviation) for r in ratings]
        seats = []
        for i, rating in enumerate(ratings):
            surprises = [0.0] * len(ratings)
            information = 0.0
            for j, other in enumerate(ratings):
                if owners[j] == owners[i]:  # its own seat, or another seat of its version
                    continue
                expected = expected_damped(rating.value - other.value, dampers[j])
                surprises[j] = dampers[j] * (pairwise_score(places[i], places[j]) - expected)
                information += dampers[j] ** 2 * expected * (1.0 - expected)
            prior = rating.deviation**2 + self.drift**2
            variance = 1.0 / (1.0 / prior + weight * LOGISTIC**2 * information)
            step = variance * weight * LOGISTIC
            versus = tuple(step * surprise for surprise in surprises)
            after = Rating(rating.value + sum(versus), math.sqrt(variance), rating.games + 1)
            seats.append(RatedSeat(after, versus))
        return seats


def damper(deviation: float) -> float:
    """Glicko's g: how much less a result says when the opponent's rating is in doubt."""
    return 1.0 / math.sqrt(1.0 + GLICKO_G * deviation**2)


def expected_damped(lead: float, damper: float) -> float:
    """The expected pairwise score of a bot `lead` points above a damped opponent
    (the logistic written so that no lead, however far, overflows)."""
    odds = LOGISTIC * damper * lead
    if odds >= 0:
        return 1.0 / (1.0 + math.exp(-odds))
    chance = math.exp(odds)
    return chance / (1.0 + chance)
