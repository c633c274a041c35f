"""What every rating system shares: the state of a rating, a rated seat, the protocol.

Ratings live on the Elo scale whatever the system: a new bot starts at 1500,
and a bot rated 400 points above another is expected to finish ahead of it
ten times out of eleven. A result is the places of one finished match (1 =
first; equal numbers are a tie) for a table of any size.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Protocol

INITIAL_RATING = 1500.0
"""The rating of a new bot."""

ELO_SCALE = 400.0
"""Points for a factor of ten in the odds of finishing ahead."""

LOGISTIC = math.log(10) / ELO_SCALE
"""The Elo scale's slope in natural units: odds of e per 1/LOGISTIC points."""


@dataclass(frozen=True)
class Rating:
    """A version's rating: its value, one standard deviation of doubt, rated games."""

    value: float = INITIAL_RATING
    deviation: float = 0.0
    games: int = 0


@dataclass(frozen=True)
class RatedSeat:
    """One seat's rating after a match, and how much each other seat moved it.

    `versus[j]` is the points this seat won (or lost) against seat j, 0 for
    its own seat and for every other seat of its own version; they add up to
    the change, so a page can show "+12 = +9 vs A, +7 vs B, -4 vs C".
    """

    after: Rating
    versus: tuple[float, ...]
    earlier: float = 0.0
    """Points from reading the version's earlier results again (against its
    opponents' current ratings); `sum(versus) + earlier` is the change."""


@dataclass(frozen=True)
class Record:
    """A version's results against one opponent version so far.

    `games` counts pairs of seats (a 4-seat match is 3 pairs, one against each
    other seat) and `points` what they scored (1 ahead, 1/2 level, 0 behind);
    `opponent` is the opponent's current rating, not its rating at the time.
    """

    opponent: Rating
    games: float
    points: float


@dataclass(frozen=True)
class Past:
    """What a seated version brings to a match besides its rating: where it
    started and its results so far against each opponent version."""

    start: Rating
    records: tuple[Record, ...] = ()


class RatingSystem(Protocol):
    """One way of rating a ladder; the platform, its pages and the bench ask only this."""

    name: str
    """The setting's value that chooses this system."""

    def initial(self) -> Rating:
        """The rating of a bot's first version."""

    def successor(self, rating: Rating) -> Rating:
        """Where a new version starts, given its bot's rating."""

    def rate(
        self,
        ratings: Sequence[Rating],
        places: Sequence[int],
        pasts: Sequence[Past] | None = None,
        versions: Sequence[Hashable] | None = None,
    ) -> list[RatedSeat]:
        """Every seat's new rating after one match, from the ratings before it.

        `pasts` (one per seat, when the caller keeps them) are the seated
        versions' starts and earlier results; a system that reads only the
        ratings ignores them, and without them a rating stands for its past.
        `versions` names the version in each seat (a house bot may fill
        several): the pairs of seats of one version say nothing about it and
        count for nothing; without it every seat is a version of its own.
        """

    def band(self, rating: Rating) -> float:
        """Half the width of the band shown as value +/- band (about 95%)."""

    def is_provisional(self, rating: Rating) -> bool:
        """True while a rating has too little behind it to trust."""


def expected_score(rating: float, opponent: float) -> float:
    """The score `rating` expects against `opponent` in one pairing, from 0 to 1."""
    power: float = 10.0 ** ((opponent - rating) / ELO_SCALE)
    return 1.0 / (1.0 + power)


def pairwise_score(place: int, opponent_place: int) -> float:
    """1 for placing ahead (a lower place number), 1/2 for level, 0 for behind."""
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def table_results(
    places: Sequence[int], versions: Sequence[Hashable] | None = None
) -> list[tuple[int, int, float]]:
    """(seat, other seat, points) for every ordered pair of seats of one match, but
    for pairs of seats of one version (`versions` names each seat's; a bot placed
    against itself learns nothing)."""
    owners: Sequence[Hashable] = range(len(places)) if versions is None else versions
    return [
        (seat, other, pairwise_score(place, other_place))
        for seat, place in enumerate(places)
        for other, other_place in enumerate(places)
        if owners[other] != owners[seat]
    ]


def check_rating(rating: Rating, what: str = "a rating") -> None:
    """Refuse a rating no maths can read: a value or deviation that is not a finite
    number, a negative deviation or count of games. One NaN would otherwise spread
    to every opponent it is read against."""
    if not math.isfinite(rating.value):
        raise ValueError(f"{what} must be a finite number, not {rating.value!r}")
    if not (math.isfinite(rating.deviation) and rating.deviation >= 0):
        raise ValueError(f"{what}'s deviation must be finite and >= 0, not {rating.deviation!r}")
    if rating.games < 0:
        raise ValueError(f"{what}'s games must be >= 0, not {rating.games!r}")


def check_record(record: Record) -> None:
    """Refuse a record that cannot be: points outside 0 to its games, or not finite."""
    check_rating(record.opponent, "a record's opponent rating")
    if not (math.isfinite(record.games) and record.games >= 0):
        raise ValueError(f"a record's games must be finite and >= 0, not {record.games!r}")
    if not (math.isfinite(record.points) and 0 <= record.points <= record.games):
        raise ValueError(
            f"a record's points must lie between 0 and its {record.games!r} games, "
            f"not {record.points!r}"
        )


def check_past(past: Past) -> None:
    """Refuse a past with an unreadable start or record."""
    check_rating(past.start, "a start")
    for record in past.records:
        check_record(record)


def check_result(
    ratings: Sequence[Rating],
    places: Sequence[int],
    pasts: Sequence[Past] | None = None,
    versions: Sequence[Hashable] | None = None,
) -> None:
    """Refuse a result that cannot be rated, with the reason."""
    if len(ratings) < 2:
        raise ValueError("a rated match needs at least two bots")
    if len(places) != len(ratings):
        raise ValueError("ratings and places must have one entry per bot")
    for rating in ratings:
        check_rating(rating)
    for place in places:
        if isinstance(place, bool) or not isinstance(place, Integral) or place < 1:
            raise ValueError(f"a place must be a whole number from 1, not {place!r}")
    if pasts is not None:
        if len(pasts) != len(ratings):
            raise ValueError("ratings and pasts must have one entry per bot")
        for past in pasts:
            check_past(past)
    if versions is not None:
        if len(versions) != len(ratings):
            raise ValueError("ratings and versions must have one entry per seat")
        if len(set(versions)) < 2:
            raise ValueError("a rated match needs at least two versions")
