"""Ratings and matchmaking measured by simulation, beside TrueSkill and OpenSkill.

    uv run --group bench python bench/ratings.py [--quick] [--runs 20] [--jobs 2]
        [--system glicko]

A ladder of 32 bots (4 of them house bots) with hidden strengths plays 2,000
matches of 2 or 4 seats. Tables come from the platform's own matchmaking
(`arena.matchmaking.beat_tables`, four tables a beat), driven by the chosen
rating system (`arena.ratings`); TrueSkill and OpenSkill rate the same
results. In a match each bot's performance is its skill plus `luck` times a
Gumbel draw, and the order of performances is the result: bot i finishes
ahead of bot j with probability 1 / (1 + exp(-(s_i - s_j) / luck)) at any
table size, so its true Elo rating is 1500 + s_i / luck * 400 / ln 10 and
only spread / luck matters on the Elo scale. Each setting is a spread of
skills (their standard deviation) and an amount of luck; each run is
deterministic per setting, seat count and run number.

Printed per setting: Kendall tau between ratings and true strengths after
2,000 matches (mean and 5th percentile over the runs); the share of bots
whose band (value +/- band) holds their true rating after 500 and 2,000
matches (truths shifted to the ratings' mean: a closed ladder's ratings have
no absolute zero); the median number of its own games a strong newcomer
(95th percentile of skill) entering the settled ladder needs before its rank
stays within +/-2 of its true rank for the rest of its first 60 games; and
the fairness of the tables over the 2,000 matches: the longest wait between
two matches of one bot over the ladder's mean interval, the smallest and
largest share of matches against a fair share, the most seats one bot held
in one beat, and the house bots' share against theirs.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import trueskill
from openskill.models import PlackettLuce
from rich.console import Console
from rich.table import Table

from arena.matchmaking import Candidate, beat_tables
from arena.ratings import DEFAULT_SYSTEM, INITIAL_RATING, SYSTEMS, rating_system
from arena.ratings.base import LOGISTIC

BOTS = 32
HOUSE_BOTS = 4
MATCHES = 2_000
EARLY_CHECK = 500
TABLES_PER_BEAT = 4
NEWCOMER_SKILL = 1.645
"""The strong newcomer's skill in standard deviations of the field: the 95th percentile."""
NEWCOMER_GAMES = 60
NEWCOMER_MARGIN = 2


@dataclass(frozen=True)
class Setting:
    name: str
    spread: float
    luck: float

    @property
    def elo_spread(self) -> float:
        """The standard deviation of the true Elo ratings."""
        return self.spread / self.luck / LOGISTIC


SETTINGS = [
    Setting("narrow, light luck", 1.0, 0.7),
    Setting("narrow, medium luck", 1.0, 1.0),
    Setting("narrow, heavy luck", 1.0, 1.5),
    Setting("wide, light luck", 2.0, 0.7),
    Setting("wide, medium luck", 2.0, 1.0),
    Setting("wide, heavy luck", 2.0, 1.5),
]


@dataclass(frozen=True)
class RunResult:
    tau: dict[str, float]
    coverage_early: float
    coverage: float
    newcomer_games: int
    max_wait: float
    shares: tuple[float, float]
    most_seats_in_a_beat: int
    house_share: float


def kendall_tau(estimates: Sequence[float], truths: Sequence[float]) -> float:
    """Kendall's tau between two orders of the same bots (no ties in the truths)."""
    concordant = discordant = 0
    for i in range(len(truths)):
        for j in range(i + 1, len(truths)):
            sign = (estimates[i] - estimates[j]) * (truths[i] - truths[j])
            concordant += sign > 0
            discordant += sign < 0
    pairs = len(truths) * (len(truths) - 1) / 2
    return (concordant - discordant) / pairs


class Ladder:
    """One simulated ladder: hidden skills, the chosen system's ratings and the baselines'."""

    def __init__(self, setting: Setting, seats: int, system: str, rng: random.Random) -> None:
        self.setting, self.seats, self.rng = setting, seats, rng
        self.system = rating_system(system)
        self.skills = [rng.gauss(0.0, setting.spread) for _ in range(BOTS)]
        self.house = [bot < HOUSE_BOTS for bot in range(BOTS)]
        self.ratings = [self.system.initial() for _ in range(BOTS)]
        self.trueskill = trueskill.TrueSkill(draw_probability=0.0)
        self.openskill = PlackettLuce()
        self.baselines: dict[str, list] | None = {
            "TrueSkill": [self.trueskill.create_rating() for _ in range(BOTS)],
            "OpenSkill": [self.openskill.rating() for _ in range(BOTS)],
        }
        self.last_seated: list[float | None] = [None] * BOTS
        self.played: list[list[int]] = [[] for _ in range(BOTS)]
        self.matches = 0
        self.most_seats_in_a_beat = 0

    def true_elo(self) -> list[float]:
        return [s / self.setting.luck / LOGISTIC for s in self.skills]

    def add_bot(self, skill: float) -> int:
        self.skills.append(skill)
        self.house.append(False)
        self.ratings.append(self.system.initial())
        self.last_seated.append(None)
        self.played.append([])
        return len(self.skills) - 1

    def beat(self) -> list[list[int]]:
        """One scheduling beat: pick tables, play and rate them one after another."""
        candidates = [
            Candidate(bot, rating.value, rating.games, self.house[bot], self.last_seated[bot])
            for bot, rating in enumerate(self.ratings)
        ]
        tables = beat_tables(
            candidates=candidates, seats=self.seats, tables=TABLES_PER_BEAT, rng=self.rng
        )
        seated = Counter(candidate.bot_id for table in tables for candidate in table)
        self.most_seats_in_a_beat = max(self.most_seats_in_a_beat, *seated.values())
        played = []
        for table in tables:
            bots = [candidate.bot_id for candidate in table]
            self.play(bots)
            played.append(bots)
        return played

    def play(self, bots: list[int]) -> None:
        luck = self.setting.luck
        performance = [
            self.skills[bot] - luck * math.log(-math.log(self.rng.random() or 1e-300))
            for bot in bots
        ]
        order = sorted(range(len(bots)), key=lambda seat: -performance[seat])
        places = [0] * len(bots)
        for place, seat in enumerate(order, start=1):
            places[seat] = place
        rated = self.system.rate([self.ratings[bot] for bot in bots], places)
        for bot, seat in zip(bots, rated, strict=True):
            self.ratings[bot] = seat.after
            self.last_seated[bot] = self.matches
            self.played[bot].append(self.matches)
        if self.baselines is not None:
            ranks = [place - 1 for place in places]
            rows = self.baselines
            out = self.trueskill.rate([(rows["TrueSkill"][b],) for b in bots], ranks=ranks)
            for bot, (rating,) in zip(bots, out, strict=True):
                rows["TrueSkill"][bot] = rating
            out = self.openskill.rate([[rows["OpenSkill"][b]] for b in bots], ranks=ranks)
            for bot, (rating,) in zip(bots, out, strict=True):
                rows["OpenSkill"][bot] = rating
        self.matches += 1

    def coverage(self) -> float:
        truths = self.true_elo()
        shift = statistics.fmean(r.value for r in self.ratings) - statistics.fmean(truths)
        held = sum(
            abs(rating.value - (truth + shift)) <= self.system.band(rating)
            for rating, truth in zip(self.ratings, truths, strict=True)
        )
        return held / len(truths)

    def taus(self) -> dict[str, float]:
        truths = self.true_elo()
        taus = {"ours": kendall_tau([r.value for r in self.ratings], truths)}
        if self.baselines is not None:
            for name, rows in self.baselines.items():
                taus[name] = kendall_tau([r.mu for r in rows], truths)
        return taus

    def fairness(self) -> tuple[float, tuple[float, float], float]:
        interval = BOTS / self.seats
        waits = [b - a for games in self.played for a, b in itertools.pairwise(games)]
        fair = MATCHES * self.seats / BOTS
        shares = [len(games) / fair for games in self.played]
        house = sum(len(g) for g, h in zip(self.played, self.house, strict=True) if h)
        return max(waits) / interval, (min(shares), max(shares)), house / (HOUSE_BOTS * fair)

    def rank_of(self, bot: int, values: Sequence[float]) -> int:
        return 1 + sum(value > values[bot] for other, value in enumerate(values) if other != bot)


def newcomer_games(ladder: Ladder) -> int:
    """Own games a strong newcomer needs before its rank stays within the margin."""
    ladder.baselines = None
    newcomer = ladder.add_bot(NEWCOMER_SKILL * ladder.setting.spread)
    true_rank = ladder.rank_of(newcomer, ladder.skills)
    last_outside = 0
    while len(ladder.played[newcomer]) < NEWCOMER_GAMES:
        for table in ladder.beat():
            if newcomer not in table:
                continue
            games = len(ladder.played[newcomer])
            rank = ladder.rank_of(newcomer, [r.value for r in ladder.ratings])
            if abs(rank - true_rank) > NEWCOMER_MARGIN:
                last_outside = games
    return last_outside


def run(setting: Setting, seats: int, number: int, system: str) -> RunResult:
    ladder = Ladder(setting, seats, system, random.Random(f"{setting.name}/{seats}/{number}"))
    coverage_early = 0.0
    while ladder.matches < MATCHES:
        before = ladder.matches
        ladder.beat()
        if before < EARLY_CHECK <= ladder.matches:
            coverage_early = ladder.coverage()
    tau, coverage = ladder.taus(), ladder.coverage()
    max_wait, shares, house_share = ladder.fairness()
    most_seats = ladder.most_seats_in_a_beat
    return RunResult(
        tau, coverage_early, coverage, newcomer_games(ladder), max_wait, shares, most_seats,
        house_share,
    )  # fmt: skip


def p5(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--system", choices=sorted(SYSTEMS), default=DEFAULT_SYSTEM)
    parser.add_argument("--quick", action="store_true", help="3 runs of the medium settings")
    args = parser.parse_args()
    settings = [s for s in SETTINGS if "medium" in s.name] if args.quick else SETTINGS
    runs = 3 if args.quick else args.runs
    jobs = [(s, seats, n, args.system) for seats in (2, 4) for s in settings for n in range(runs)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(run, *zip(*jobs, strict=True)))
    console = Console(width=200)
    console.print(f"rating system: {args.system}; {runs} runs per setting; start {INITIAL_RATING}")
    for seats in (2, 4):
        table = Table(title=f"{seats} seats, {BOTS} bots, {MATCHES} matches")
        for column in (
            "setting", "Elo sd", "tau", "tau p5", "TrueSkill", "p5", "OpenSkill", "p5",
            "band 500", "band 2000", "newcomer", "max wait", "share", "seats", "house",
        ):  # fmt: skip
            table.add_column(column, justify="left" if column == "setting" else "right")
        for setting in settings:
            rows = [
                r for (s, n, _, _), r in zip(jobs, results, strict=True)
                if s == setting and n == seats
            ]  # fmt: skip
            cells = [setting.name, f"{setting.elo_spread:.0f}"]
            for name in ("ours", "TrueSkill", "OpenSkill"):
                taus = [r.tau[name] for r in rows]
                cells += [f"{statistics.fmean(taus):.3f}", f"{p5(taus):.3f}"]
            cells += [
                f"{statistics.fmean(r.coverage_early for r in rows):.1%}",
                f"{statistics.fmean(r.coverage for r in rows):.1%}",
                f"{statistics.median(r.newcomer_games for r in rows):.0f}",
                f"{max(r.max_wait for r in rows):.2f}x",
                f"{min(r.shares[0] for r in rows):.2f}-{max(r.shares[1] for r in rows):.2f}",
                str(max(r.most_seats_in_a_beat for r in rows)),
                f"{max(r.house_share for r in rows):.2f}",
            ]
            table.add_row(*cells)
        console.print(table)


if __name__ == "__main__":
    main()
