"""Matchmaking's choices, without storage: who seeds a table and who sits at it.

The platform's scheduling beat and `bench/ratings.py` call the same functions,
so the simulation measures the tables the site really makes.

A beat seats each bot at most once: it fills tables one after another from
the bots not yet seated, and each table is built around a *seed*, the bot
that has waited longest (ties drawn at random, so age and ids give no
advantage). The seed's opponents are drawn from the longer-waiting half of
the bots still free, which keeps every bot's share of matches close to fair
and its waits short, also for the strongest and weakest bots, who have
neighbours by rating on one side only.

A version's first `EXPLORATION_MATCHES` matches are at random tables, to
place it quickly: a table seeded by such a version is drawn at random, and
elsewhere such a version is never drawn for its nearness by rating (its
rating says little yet), only by the random draws, after which the table's
other seats are random too. An established seed's rivals are drawn with a
preference for those near it by rating (half as likely at `NEIGHBOURHOOD`
points away as at none, divided by how crowded the rival's own neighbourhood
is), and each seat is drawn uniformly instead with chance
`RANDOM_SEAT_CHANCE`. Always taking the nearest rivals would tie the ratings
to local comparisons only: `bench/ratings.py` shows the scale then drifts
(ratings stretched against the truth) and the bands stop covering it. Only
when a ladder has fewer bots than seats do house bots hold several seats of
one table.

No table seats two bots of one owner, who could share what each knows (their
dice at Mia): a rival whose owner already has a seat is never drawn. House
bots have no owner here and sit with anyone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

EXPLORATION_MATCHES = 10
RANDOM_SEAT_CHANCE = 0.25


@dataclass(frozen=True)
class Candidate:
    """What matchmaking knows of a bot: its rating, its version's games, when it last sat."""

    bot_id: int
    rating: float
    games: int
    house: bool
    last_seated: float | None = None
    """When it was last seated (any increasing clock); None if never."""
    owner: int | None = None
    """Whose bot it is; None for a house bot, which may sit with any owner's."""

    @property
    def exploring(self) -> bool:
        return self.games < EXPLORATION_MATCHES


def table_pick(
    *, seed: Candidate, others: Sequence[Candidate], seats: int, rng: random.Random
) -> list[Candidate] | None:
    """The seed and its opponents in seating order, or None if the table cannot be filled.

    A candidate in `others` with the seed's bot id is the seed itself, and is
    ignored, as is one of an owner already seated. House bots repeat only when
    there are fewer bots than seats.
    """
    rivals = [candidate for candidate in others if candidate.bot_id != seed.bot_id]
    crowd = _crowding([seed, *rivals])
    table = [seed]
    pool = [candidate for candidate in rivals if not _owner_seated(candidate, table)]
    while len(table) < seats and pool:
        random_seat = any(c.exploring for c in table) or rng.random() < RANDOM_SEAT_CHANCE
        settled = [candidate for candidate in pool if not candidate.exploring]
        if random_seat or not settled:
            pick = rng.choice(pool)
        else:
            weights = [_closeness(c.rating - seed.rating) / crowd[c.bot_id] for c in settled]
            pick = rng.choices(settled, weights=weights)[0]
        table.append(pick)
        pool = [c for c in pool if c is not pick and not _owner_seated(c, table)]
    house = [candidate for candidate in (seed, *rivals) if candidate.house]
    if len(table) < seats and not house:
        return None
    while len(table) < seats:
        table.append(rng.choice(house))
    rng.shuffle(table)
    return table


def _owner_seated(candidate: Candidate, table: Sequence[Candidate]) -> bool:
    """True if a bot of `candidate`'s owner (not the house) already sits at `table`."""
    return candidate.owner is not None and any(c.owner == candidate.owner for c in table)


NEIGHBOURHOOD = 300.0
"""Rating points at which a rival is half as likely to be drawn as an equal one."""


def _closeness(gap: float) -> float:
    """How likely a rival `gap` points from the seed is drawn, against an equal one."""
    return 1.0 / (1.0 + (gap / NEIGHBOURHOOD) ** 2)


def _crowding(candidates: Sequence[Candidate]) -> dict[int, float]:
    """How many bots (by closeness) stand near each one, itself included.

    A rival's chance is divided by it, so the strongest and weakest bots, who
    have neighbours on one side only, are drawn as often as those in the
    middle of the field instead of waiting for their turn as seed.
    """
    return {
        candidate.bot_id: sum(_closeness(candidate.rating - other.rating) for other in candidates)
        for candidate in candidates
    }


def waiting_order(candidates: Sequence[Candidate], rng: random.Random) -> list[Candidate]:
    """Longest waiting first: never seated, then by when last seated, ties at random."""
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    return sorted(
        shuffled,
        key=lambda c: (c.last_seated is not None, c.last_seated if c.last_seated else 0.0),
    )


def beat_tables(
    *, candidates: Sequence[Candidate], seats: int, tables: int, rng: random.Random
) -> list[list[Candidate]]:
    """Up to `tables` tables for one scheduling beat; no bot sits at two of them.

    Fewer tables come back when the free bots run out. A ladder with fewer
    bots than seats gets one table at most, filled by its house bots.
    """
    free = waiting_order(candidates, rng)
    made: list[list[Candidate]] = []
    while len(made) < tables and free:
        seed, *rest = free
        if len(free) < seats and made:
            break
        eligible = [candidate for candidate in rest if not _owner_seated(candidate, [seed])]
        table = table_pick(
            seed=seed, others=eligible[: max(seats - 1, len(eligible) // 2)], seats=seats, rng=rng
        )
        if table is None:  # one owner's bots crowd the longer-waiting half: draw from all
            table = table_pick(seed=seed, others=eligible, seats=seats, rng=rng)
        if table is None:
            break
        made.append(table)
        seated = {candidate.bot_id for candidate in table}
        free = [candidate for candidate in free if candidate.bot_id not in seated]
    return made
