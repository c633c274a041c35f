"""Glicko's model re-fitted at every match to all of a version's results.

A rating is a belief about a version's strength: a value and a deviation (one
standard deviation, in Elo points). When a version plays, its belief is
computed afresh from where it started (its `initial` or `successor` rating,
the prior) and every pair of seats it has played, each result read against
the opponent's *current* rating, not its rating at the time:

    g_j      = 1 / sqrt(1 + 3 q^2 d_j^2 / pi^2)      (a doubtful opponent says less)
    E_j(R)   = 1 / (1 + 10 ** (-g_j (R - R_j) / 400))
    log p(R) = -(R - R_0)^2 / (2 d_0^2) + w sum_j [P_j log E_j(R) + (G_j - P_j) log(1 - E_j(R))]

with q = ln 10 / 400, G_j the pairs of seats played against opponent version
j, P_j the points they scored (1 ahead, 1/2 level, 0 behind) and w what a
pair counts for at the ladder's table size (1 / (N - 1) ** 0.3 of a game).
The new value is the mode of p (Newton's method on one variable) and the new
deviation 1 / sqrt(-d^2 log p / dR^2) there. Since E_j depends only on the two
current ratings, G_j and P_j per opponent are all that is kept of the past: a
re-fit costs one term per distinct opponent, however many games.

Reading earlier results against current ratings heals an error the whole
ladder shares: while every deviation is large the ratings' scale is set by
few games, and an update that takes each result once, against the ratings of
its day, keeps that scale; here each re-fit is a step toward the fit of all
results at once.

The change splits exactly into points against each opponent of this match and
one remainder, `earlier`: R_earlier is the mode without this match's results
(the earlier ones re-read), `earlier = R_earlier - R`, and the rest,
R' - R_earlier, is shared out by this match's terms of the gradient at R',
each divided by the mean curvature of the rest of the posterior between
R_earlier and R' (they add up to R' - R_earlier since the gradient is zero at
both modes).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from arena.ratings.base import (
    LOGISTIC,
    Past,
    RatedSeat,
    Rating,
    Record,
    check_past,
    check_result,
    table_results,
)
from arena.ratings.glicko import GlickoBelief, damper, expected_damped

LEAST_DEVIATION = 1.0
"""A prior is never narrower than this (a settled rating standing for its past)."""
TOLERANCE = 1e-7
"""Newton's method stops once a step is below this, in Elo points."""
MOST_STEPS = 200
ROUNDING = 1e-9
"""Points below this are the rounding of sums, not a change."""


@dataclass(frozen=True)
class Evidence:
    """Results against one opponent: games and points already weighted."""

    opponent: float
    damper: float
    games: float
    points: float

    def gradient(self, value: float) -> float:
        return LOGISTIC * self.damper * (self.points - self.games * self._expected(value))

    def curvature(self, value: float) -> float:
        expected = self._expected(value)
        return (LOGISTIC * self.damper) ** 2 * self.games * expected * (1.0 - expected)

    def _expected(self, value: float) -> float:
        return expected_damped(value - self.opponent, self.damper)


@dataclass(frozen=True)
class Posterior:
    """A normal prior times the likelihood of some evidence, on one variable."""

    mean: float
    deviation: float
    evidence: tuple[Evidence, ...]

    def gradient(self, value: float) -> float:
        prior = (self.mean - value) / self.deviation**2
        return prior + math.fsum(piece.gradient(value) for piece in self.evidence)

    def curvature(self, value: float) -> float:
        prior = 1.0 / self.deviation**2
        return prior + math.fsum(piece.curvature(value) for piece in self.evidence)

    def mode(self, guess: float) -> float:
        """Newton's method from `guess`, safeguarded by bisection.

        The likelihood's gradient lies between q sum g (P - G) and q sum g P, so
        the mode lies within the prior's mean moved by d^2 times each. A Newton
        step that leaves that bracket, or is not half as long as the step before
        it, is replaced by halving the bracket: far from the mode, where the
        results are all but certain, plain Newton can jump to and fro for ever.
        """
        reach = LOGISTIC * self.deviation**2
        low = self.mean + reach * sum(e.damper * (e.points - e.games) for e in self.evidence)
        high = self.mean + reach * sum(e.damper * e.points for e in self.evidence)
        value = min(max(guess, low), high)
        previous = high - low
        for _ in range(MOST_STEPS):
            slope = self.gradient(value)
            if slope > 0:
                low = value
            else:
                high = value
            step = slope / self.curvature(value)
            if not low <= value + step <= high or abs(step) > abs(previous) / 2:
                step = (low + high) / 2 - value
            previous = step
            value += step
            if abs(step) < TOLERANCE:
                break
        return value

    def mean_curvature(self, start: float, end: float) -> float:
        """-(change of the gradient) / (change of the value) from `start` to `end`."""
        if abs(end - start) < 1e-6:
            return self.curvature(end)
        return (self.gradient(start) - self.gradient(end)) / (end - start)


def folded_evidence(
    records: Sequence[Record], weight: float, rating_bin: float, damper_bin: float
) -> tuple[Evidence, ...]:
    """The records as evidence (each pair worth `weight` of a game), those against
    opponents whose ratings round to one multiple of `rating_bin` and whose dampers
    to one of `damper_bin` folded into one term at their games' mean rating and
    damper, with the points that keep the sum of g_j P_j; a `rating_bin` of 0
    keeps one term per record."""
    if not rating_bin:
        return tuple(
            Evidence(
                record.opponent.value,
                damper(record.opponent.deviation),
                weight * record.games,
                weight * record.points,
            )
            for record in records
        )
    bins: dict[tuple[int, int], list[float]] = {}
    for record in records:
        if not record.games:
            continue
        games, value = record.games, record.opponent.value
        damping = damper(record.opponent.deviation)
        key = (round(value / rating_bin), round(damping / damper_bin))
        total = bins.get(key)
        if total is None:
            bins[key] = [games, damping * record.points, games * value, games * damping]
        else:
            total[0] += games
            total[1] += damping * record.points
            total[2] += games * value
            total[3] += games * damping
    # The points are kept as the sum of g_j P_j (over the mean g), which is what the
    # gradient reads, so the folded term is exact to first order in the bin's spread.
    return tuple(
        Evidence(rated / games, damping / games, weight * games, weight * points * games / damping)
        for games, points, rated, damping in bins.values()
    )


@dataclass(frozen=True)
class RefitGlicko(GlickoBelief):
    """Each seated version re-fitted to all its results against current ratings."""

    table_exponent: float = 0.3
    rating_bin: float = 16.0
    """Records against opponents whose ratings round to one multiple of this (in
    Elo points) and whose dampers round to one multiple of `damper_bin` are read
    as one term, at their games' mean rating and damper: the re-fit's Newton
    steps then cost one term per occupied bin, however many opponent versions a
    version has met (a few hundred at most on a ladder's span of ratings).
    Within a bin the logistic's argument differs by at most about 0.05 between
    terms, and the folded term is exact to first order, so the fit moves by far
    less than a point (`bench/ratings.py --cost` measures it). 0 reads every
    record as its own term."""
    damper_bin: float = 0.02

    name = "refit"

    def rate(
        self,
        ratings: Sequence[Rating],
        places: Sequence[int],
        pasts: Sequence[Past] | None = None,
        versions: Sequence[Hashable] | None = None,
    ) -> list[RatedSeat]:
        check_result(ratings, places, pasts, versions)
        if pasts is None:
            pasts = [Past(rating) for rating in ratings]
        owners: Sequence[Hashable] = range(len(ratings)) if versions is None else versions
        weight = self.pair_weight(len(ratings))
        # One fit per version, from all its seats' pairs against other versions' seats.
        this_match: dict[Hashable, dict[int, list[Evidence]]] = {owner: {} for owner in owners}
        for seat, other, points in table_results(places, owners):
            opponent = ratings[other]
            this_match[owners[seat]].setdefault(other, []).append(
                Evidence(opponent.value, damper(opponent.deviation), weight, weight * points)
            )
        fitted: dict[Hashable, RatedSeat] = {}
        for seat, owner in enumerate(owners):
            if owner not in fitted:
                fitted[owner] = self._refit(
                    ratings[seat], pasts[seat], this_match[owner], len(ratings), weight
                )
        return [fitted[owner] for owner in owners]

    def refit(self, past: Past, seats: int) -> Rating:
        """A version's belief from its start and its results alone, at a table of `seats`."""
        check_past(past)
        if seats < 2:
            raise ValueError("a rated match needs at least two seats")
        prior = self._earlier_belief(past, self.pair_weight(seats))
        value = prior.mode(prior.mean)
        return Rating(value, 1.0 / math.sqrt(prior.curvature(value)), 0)

    def _earlier_belief(self, past: Past, weight: float) -> Posterior:
        deviation = max(LEAST_DEVIATION, past.start.deviation)
        evidence = folded_evidence(past.records, weight, self.rating_bin, self.damper_bin)
        return Posterior(past.start.value, deviation, evidence)

    def _refit(
        self,
        rating: Rating,
        past: Past,
        this_match: dict[int, list[Evidence]],
        seats: int,
        weight: float,
    ) -> RatedSeat:
        earlier = self._earlier_belief(past, weight)
        reread = earlier.mode(rating.value)
        pieces = [piece for per_seat in this_match.values() for piece in per_seat]
        posterior = Posterior(earlier.mean, earlier.deviation, (*earlier.evidence, *pieces))
        value = posterior.mode(reread)
        per_point = earlier.mean_curvature(reread, value)
        versus = tuple(
            math.fsum(piece.gradient(value) for piece in this_match.get(other, ())) / per_point
            for other in range(seats)
        )
        after = Rating(value, 1.0 / math.sqrt(posterior.curvature(value)), rating.games + 1)
        earlier_points = value - rating.value - math.fsum(versus)
        if abs(earlier_points) < ROUNDING:  # nothing re-read but the sums' rounding
            earlier_points = 0.0
        return RatedSeat(after, versus, earlier_points)
