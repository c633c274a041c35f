"""Pairs of bots that do better together than their ratings say: a report for operators.

Two bots that collude (share their dice, feed each other points) win, when
they sit at one table, more against the other seats than their ratings
predict. Each bot is scored against every other seat of each table (1
ahead, 1/2 level, 0 behind) beside its expectation from the ratings both
held before the match (the Elo curve, 400 points a factor of ten). For every
pair that shared tables, the excess is what the two scored there against
the other seats, less what each scores against its rivals on average at the
tables it sat at without the other (which holds how far off its rating is,
and how overrated a colluder it meets is); its z is the excess over the
square root of the sum of each shared table's excess squared, which holds
however the seats' scores at one table hang together (places are one
order). An honest pair's z stays near 0; a colluding pair's grows with the
square root of the tables it shares.

Pairs of one owner never share a ranked table (`arena.matchmaking`), so a
flagged pair is of two owners: an operator's question to ask, not proof.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ladders.models import Ladder
from matches.models import Match, MatchSeat
from ranked.models import RatingChange

THRESHOLD = 4.0
"""The z past which a pair is flagged: about 1 honest pair in 30,000 at random."""
MIN_TABLES = 20
"""Tables a pair must share before it is judged at all."""


@dataclass(frozen=True)
class Seat:
    """One seat of a finished table: whose bot, its rating before the match, its place."""

    bot_id: int
    rating: float
    place: int


@dataclass(frozen=True)
class PairResult:
    """How a pair of bots did together against the other seats of the tables they shared."""

    first: int
    second: int
    tables: int
    excess: float
    """Score against the other seats minus what the ratings expected, both bots summed."""
    z: float


def expected(rating: float, other: float) -> float:
    """The expected score of `rating` against `other`."""
    return 1.0 / (1.0 + math.pow(10.0, (other - rating) / 400.0))


def pair_results(tables: Iterable[Sequence[Seat]]) -> list[PairResult]:
    """Every pair of bots that shared a table, with its excess and z, highest z first."""
    # A house bot in several seats of one table counts once, in its best place.
    distinct = [
        list({seat.bot_id: seat for seat in sorted(table, key=lambda s: -s.place)}.values())
        for table in tables
    ]
    # Each bot's score minus expectation against each rival, per table it sat at.
    terms: dict[int, dict[int, list[tuple[int, float]]]] = defaultdict(dict)
    for index, table in enumerate(distinct):
        for member in table:
            terms[member.bot_id][index] = [
                (rival.bot_id, _term(member, rival)) for rival in table if rival is not member
            ]
    totals = {
        bot: (
            sum(t[1] for each in by_table.values() for t in each),
            sum(map(len, by_table.values())),
        )
        for bot, by_table in terms.items()
    }
    results = []
    for first, second in itertools.combinations(sorted(terms), 2):
        together = terms[first].keys() & terms[second].keys()
        if not together:
            continue
        by_table = dict.fromkeys(together, 0.0)
        for bot, partner in ((first, second), (second, first)):
            held = [term for index in together for term in terms[bot][index]]
            apart_count = totals[bot][1] - len(held)
            apart_sum = totals[bot][0] - sum(term[1] for term in held)
            baseline = apart_sum / apart_count if apart_count else 0.0
            for index in together:
                by_table[index] += sum(
                    term[1] - baseline for term in terms[bot][index] if term[0] != partner
                )
        excess = sum(by_table.values())
        variance = sum(value * value for value in by_table.values())
        z = excess / math.sqrt(variance) if variance > 0 else 0.0
        results.append(PairResult(first, second, len(together), excess, z))
    return sorted(results, key=lambda result: -result.z)


def _term(member: Seat, rival: Seat) -> float:
    """`member`'s score against `rival` minus its expectation."""
    score = 1.0 if member.place < rival.place else 0.5 if member.place == rival.place else 0.0
    return score - expected(member.rating, rival.rating)


def ladder_tables(ladder: Ladder) -> list[list[Seat]]:
    """The finished ranked tables of `ladder`, each seat with its rating before the match."""
    before = {
        (change.match_id, change.bot_id): change.before
        for change in RatingChange.objects.filter(match__ladder=ladder).only(
            "match_id", "bot_id", "before"
        )
    }
    seats = MatchSeat.objects.filter(
        match__ladder=ladder,
        match__kind=Match.Kind.RANKED,
        match__status=Match.Status.FINISHED,
        place__isnull=False,
    ).values_list("match_id", "bot_id", "place")
    tables: dict[int, list[Seat]] = defaultdict(list)
    for match_id, bot_id, place in seats:
        rating = before.get((match_id, bot_id))
        if rating is not None and place is not None:
            tables[match_id].append(Seat(bot_id, rating, place))
    return [table for table in tables.values() if len(table) > 1]


def suspicious_pairs(
    *, ladder: Ladder, threshold: float = THRESHOLD, min_tables: int = MIN_TABLES
) -> list[PairResult]:
    """The pairs of `ladder` that shared at least `min_tables` tables and whose z passes
    `threshold`, highest first."""
    return [
        result
        for result in pair_results(ladder_tables(ladder))
        if result.tables >= min_tables and result.z >= threshold
    ]
