"""Ratings and matchmaking measured by simulation, beside TrueSkill and OpenSkill.

    uv run --group bench python bench/ratings.py [--quick] [--runs 20] [--jobs 2]
        [--system refit] [--start-deviation 420]
    uv run --group bench python bench/ratings.py --ceiling [--runs 20]
    uv run --group bench python bench/ratings.py --cost

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
2,000 matches (mean and 5th percentile over the runs), beside the same for
TrueSkill, OpenSkill and "fit": a Plackett-Luce fit of all 2,000 results at
once (the simulation's own model, every match known, no online
approximation), a reference for how much order these games hold; the slope
of the ratings on the true ratings (1 when their scale is right, below 1
when compressed); the share of bots whose band (value +/- band) holds their
true rating after 500 and 2,000 matches (truths shifted to the ratings'
mean: a closed ladder's ratings have no absolute zero); the median number of
its own games a strong newcomer (95th percentile of skill) entering the
settled ladder needs before its rank stays within +/-2 of its true rank for
the rest of its first 60 games; and the fairness of the tables over the
2,000 matches: the longest wait between two matches of one bot over the
ladder's mean interval, the smallest and largest share of matches against a
fair share, the most seats one bot held in one beat, and the house bots'
share against theirs.

`--ceiling` simulates nothing: for the same ladders (the same seeds draw the
same skills) it prints the Kendall tau that ratings would reach if each bot's
error were the least that its share of the matches allows, every match
played against equals whose strengths are known exactly (the Cramer-Rao
bound of the simulation's own model), errors independent and normal. It is
a reference for how much order 2,000 matches can hold under any
matchmaking, not a strict bound (errors that neighbours share can order
them a little better).

`--cost` simulates nothing either: it prints the CPU time each system takes
to rate one match of versions that each have records against 8 to 3,000
opponent versions, the default system's against glicko's and against the
re-fit reading every record as its own term (`rating_bin=0`), measured in
the same run, and the largest change that folding records into bins makes
to a re-fitted rating there.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

# bench/platform.py would shadow the standard library's platform, which openskill imports.
HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

import trueskill  # noqa: E402
from openskill.models import PlackettLuce  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.matchmaking import Candidate, beat_tables  # noqa: E402
from arena.ratings import (  # noqa: E402
    DEFAULT_SYSTEM,
    INITIAL_RATING,
    SYSTEMS,
    Past,
    Rating,
    RatingSystem,
    Record,
    rating_system,
    table_results,
)
from arena.ratings.base import LOGISTIC  # noqa: E402
from arena.ratings.glicko import GlickoBelief  # noqa: E402
from arena.ratings.refit import RefitGlicko  # noqa: E402

BOTS = 32
HOUSE_BOTS = 4
MATCHES = 2_000
EARLY_CHECK = 500
TABLES_PER_BEAT = 4
NEWCOMER_SKILL = 1.645
"""The strong newcomer's skill in standard deviations of the field: the 95th percentile."""
NEWCOMER_GAMES = 60
NEWCOMER_MARGIN = 2
FIT_PRIOR = 10.0
FIT_TOLERANCE = 1e-6
FIT_ROUNDS = 50
CEILING_DRAWS = 200
"""Ladders of errors drawn per run for the ceiling."""
COST_MATCHES = 300
"""Matches rated per system and table for `--cost` (fewer past 100 opponents)."""
UNFOLDED = RefitGlicko()


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
    slope: float
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


def slope(estimates: Sequence[float], truths: Sequence[float]) -> float:
    """The least-squares slope of estimates on truths: 1 when the scale is right."""
    mean_e, mean_t = statistics.fmean(estimates), statistics.fmean(truths)
    spread = sum((t - mean_t) ** 2 for t in truths)
    return sum((e - mean_e) * (t - mean_t) for e, t in zip(estimates, truths, strict=True)) / spread


def plackett_luce_fit(bots: int, finishes: Sequence[Sequence[int]]) -> list[float]:
    """Each bot's skill fitted to every finish (bots from first to last) at once.

    The mode of the Plackett-Luce likelihood, the simulation's own model of how
    Gumbel performances order a table, times a weak normal prior (standard
    deviation `FIT_PRIOR`, in units of luck), found by Newton's method.
    """
    skills = [0.0] * bots
    for _ in range(FIT_ROUNDS):
        gradient = [-skill / FIT_PRIOR**2 for skill in skills]
        curvature = [[0.0] * bots for _ in range(bots)]
        for bot in range(bots):
            curvature[bot][bot] = 1.0 / FIT_PRIOR**2
        for finish in finishes:
            for stage in range(len(finish) - 1):
                left = finish[stage:]
                weights = [math.exp(skills[bot]) for bot in left]
                total = sum(weights)
                chances = [weight / total for weight in weights]
                gradient[finish[stage]] += 1.0
                for bot, chance in zip(left, chances, strict=True):
                    gradient[bot] -= chance
                    curvature[bot][bot] += chance
                    for other, other_chance in zip(left, chances, strict=True):
                        curvature[bot][other] -= chance * other_chance
        step = _solve(curvature, gradient)
        skills = [skill + change for skill, change in zip(skills, step, strict=True)]
        if max(abs(change) for change in step) < FIT_TOLERANCE:
            break
    return skills


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector, for a symmetric positive definite matrix (Gauss)."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for pivot in range(size):
        for row in range(pivot + 1, size):
            factor = rows[row][pivot] / rows[pivot][pivot]
            for column in range(pivot, size + 1):
                rows[row][column] -= factor * rows[pivot][column]
    solution = [0.0] * size
    for row in reversed(range(size)):
        known = sum(rows[row][column] * solution[column] for column in range(row + 1, size))
        solution[row] = (rows[row][size] - known) / rows[row][row]
    return solution


def draw_skills(setting: Setting, rng: random.Random) -> list[float]:
    return [rng.gauss(0.0, setting.spread) for _ in range(BOTS)]


def finish_information(seats: int) -> float:
    """Fisher information about one bot's skill (in units of luck) in a finish among equals.

    A Plackett-Luce finish draws the winner of those left at each stage; the
    bot is still in the draw of j bots with chance j / seats, and that draw
    tells (1/j)(1 - 1/j) about it.
    """
    return sum((1 - 1 / left) / seats for left in range(2, seats + 1))


def least_error(seats: int) -> float:
    """The Cramer-Rao error of one bot's skill (units of luck) after its share of the matches."""
    return 1.0 / math.sqrt(MATCHES * seats / BOTS * finish_information(seats))


def ceiling_taus(setting: Setting, seats: int, number: int) -> list[float]:
    """Kendall taus of one run's ladder with the least errors its matches allow, drawn afresh."""
    skills = draw_skills(setting, random.Random(f"{setting.name}/{seats}/{number}"))
    truths = [skill / setting.luck for skill in skills]
    error = least_error(seats)
    rng = random.Random(f"ceiling/{setting.name}/{seats}/{number}")
    return [
        kendall_tau([truth + rng.gauss(0.0, error) for truth in truths], truths)
        for _ in range(CEILING_DRAWS)
    ]


def cost_case(seats: int, opponents: int) -> tuple[list[Past], list[list[Rating]]]:
    """Versions that each have records against `opponents` opponent versions (a
    settled ladder's finish, opponents of mixed doubt), and tables of them to rate."""
    rng = random.Random(f"cost/{seats}/{opponents}")
    field = [
        Rating(rng.gauss(1500.0, 300.0), rng.choice((40.0, 60.0, 120.0, 300.0)), 300)
        for _ in range(opponents + seats)
    ]
    pasts = [
        Past(
            Rating(rng.gauss(1500.0, 300.0), 350.0, 0),
            tuple(Record(rating, 40, rng.uniform(0, 40)) for rating in field[:opponents]),
        )
        for _ in range(seats)
    ]
    tables = [rng.sample(field, seats) for _ in range(max(3, COST_MATCHES * 100 // opponents))]
    return pasts, tables[:COST_MATCHES]


def rate_cost(system: RatingSystem, seats: int, opponents: int) -> float:
    """CPU seconds `system` takes to rate one match of `seats` versions, each of which
    has records against `opponents` opponent versions."""
    pasts, tables = cost_case(seats, opponents)
    places = list(range(1, seats + 1))
    start = time.process_time()
    for table in tables:
        system.rate(table, places, pasts)
    return (time.process_time() - start) / len(tables)


def folding_shift(seats: int, opponents: int) -> float:
    """The largest change, in Elo points, that folding records into bins makes to a
    re-fitted rating of the cost's cases."""
    pasts, tables = cost_case(seats, opponents)
    folded, every = SYSTEMS[DEFAULT_SYSTEM], dataclasses.replace(UNFOLDED, rating_bin=0.0)
    places = list(range(1, seats + 1))
    return max(
        abs(a.after.value - b.after.value)
        for table in tables[:20]
        for a, b in zip(
            folded.rate(table, places, pasts), every.rate(table, places, pasts), strict=True
        )
    )


def print_cost(console: Console) -> None:
    table = Table(title=f"CPU to rate one match, mean of up to {COST_MATCHES}")
    systems = {**SYSTEMS, "refit unfolded": dataclasses.replace(UNFOLDED, rating_bin=0.0)}
    for column in (
        "seats", "opponents each", *systems, f"{DEFAULT_SYSTEM} / glicko", "refit / unfolded",
        "largest shift from folding",
    ):  # fmt: skip
        table.add_column(column, justify="right")
    for seats in (2, 4):
        for opponents in (8, 31, 100, 1000, 3000):
            costs = {name: rate_cost(system, seats, opponents) for name, system in systems.items()}
            table.add_row(
                str(seats), str(opponents), *(f"{cost * 1000:.3f} ms" for cost in costs.values()),
                f"{costs[DEFAULT_SYSTEM] / costs['glicko']:.1f}x",
                f"{costs[DEFAULT_SYSTEM] / costs['refit unfolded']:.2f}x",
                f"{folding_shift(seats, opponents):.4f}",
            )  # fmt: skip
    console.print(table)


def print_ceiling(console: Console, settings: Sequence[Setting], runs: int) -> None:
    table = Table(title=f"Kendall tau at the information ceiling, {runs} runs per setting")
    for column in ("seats", "setting", "Elo sd", "error (Elo)", "tau", "p5"):
        table.add_column(column, justify="left" if column == "setting" else "right")
    for seats in (2, 4):
        error = least_error(seats) / LOGISTIC
        for setting in settings:
            taus = [tau for n in range(runs) for tau in ceiling_taus(setting, seats, n)]
            table.add_row(
                str(seats), setting.name, f"{setting.elo_spread:.0f}", f"{error:.1f}",
                f"{statistics.fmean(taus):.3f}", f"{p5(taus):.3f}",
            )  # fmt: skip
    console.print(table)


class Ladder:
    """One simulated ladder: hidden skills, the chosen system's ratings and the baselines'."""

    def __init__(
        self, setting: Setting, seats: int, system: RatingSystem, rng: random.Random
    ) -> None:
        self.setting, self.seats, self.rng, self.system = setting, seats, rng, system
        self.skills = draw_skills(setting, rng)
        self.house = [bot < HOUSE_BOTS for bot in range(BOTS)]
        self.ratings = [self.system.initial() for _ in range(BOTS)]
        self.starts = list(self.ratings)
        self.records: list[dict[int, list[float]]] = [{} for _ in range(BOTS)]
        """Per bot, its games and points against each opponent, as the platform keeps them."""
        self.trueskill = trueskill.TrueSkill(draw_probability=0.0)
        self.openskill = PlackettLuce()
        self.baselines: dict[str, list] | None = {
            "TrueSkill": [self.trueskill.create_rating() for _ in range(BOTS)],
            "OpenSkill": [self.openskill.rating() for _ in range(BOTS)],
        }
        self.last_seated: list[float | None] = [None] * BOTS
        self.played: list[list[int]] = [[] for _ in range(BOTS)]
        self.finishes: list[list[int]] = []
        self.matches = 0
        self.most_seats_in_a_beat = 0

    def true_elo(self) -> list[float]:
        return [s / self.setting.luck / LOGISTIC for s in self.skills]

    def add_bot(self, skill: float) -> int:
        self.skills.append(skill)
        self.house.append(False)
        self.ratings.append(self.system.initial())
        self.starts.append(self.system.initial())
        self.records.append({})
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
        self.finishes.append([bots[seat] for seat in order])
        rated = self.system.rate(
            [self.ratings[bot] for bot in bots], places, [self.past(bot) for bot in bots]
        )
        for seat, other, points in table_results(places):
            record = self.records[bots[seat]].setdefault(bots[other], [0.0, 0.0])
            record[0] += 1
            record[1] += points
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

    def past(self, bot: int) -> Past:
        records = self.records[bot].items()
        return Past(
            self.starts[bot],
            tuple(Record(self.ratings[other], games, points) for other, (games, points) in records),
        )

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
        taus["fit"] = kendall_tau(plackett_luce_fit(len(self.skills), self.finishes), truths)
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


def run(setting: Setting, seats: int, number: int, system: RatingSystem) -> RunResult:
    ladder = Ladder(setting, seats, system, random.Random(f"{setting.name}/{seats}/{number}"))
    coverage_early = 0.0
    while ladder.matches < MATCHES:
        before = ladder.matches
        ladder.beat()
        if before < EARLY_CHECK <= ladder.matches:
            coverage_early = ladder.coverage()
    tau, coverage = ladder.taus(), ladder.coverage()
    scale = slope([r.value for r in ladder.ratings], ladder.true_elo())
    max_wait, shares, house_share = ladder.fairness()
    most_seats = ladder.most_seats_in_a_beat
    return RunResult(
        tau, scale, coverage_early, coverage, newcomer_games(ladder), max_wait, shares, most_seats,
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
    parser.add_argument(
        "--ceiling", action="store_true", help="only the order the matches could hold at best"
    )
    parser.add_argument(
        "--cost", action="store_true", help="only the CPU each system takes to rate a match"
    )
    parser.add_argument(
        "--start-deviation", type=float, help="a new bot's deviation (glicko, refit; default 420)"
    )
    args = parser.parse_args()
    system = rating_system(args.system)
    if args.start_deviation is not None:
        if not isinstance(system, GlickoBelief):
            parser.error(f"--start-deviation needs glicko or refit, not {args.system!r}")
        system = dataclasses.replace(system, initial_deviation=args.start_deviation)
    settings = [s for s in SETTINGS if "medium" in s.name] if args.quick else SETTINGS
    runs = 3 if args.quick else args.runs
    if args.ceiling:
        print_ceiling(Console(width=200), settings, runs)
        return
    if args.cost:
        print_cost(Console(width=200))
        return
    jobs = [(s, seats, n, system) for seats in (2, 4) for s in settings for n in range(runs)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(run, *zip(*jobs, strict=True)))
    console = Console(width=200)
    start = f"start {INITIAL_RATING:.0f} ± {2 * system.initial().deviation:.0f}"
    console.print(f"rating system: {args.system}; {runs} runs per setting; {start}")
    for seats in (2, 4):
        table = Table(title=f"{seats} seats, {BOTS} bots, {MATCHES} matches")
        for column in (
            "setting", "Elo sd", "tau", "tau p5", "TrueSkill", "p5", "OpenSkill", "p5",
            "fit", "p5", "slope", "band 500", "band 2000", "newcomer", "max wait", "share",
            "seats", "house",
        ):  # fmt: skip
            table.add_column(column, justify="left" if column == "setting" else "right")
        for setting in settings:
            rows = [
                r for (s, n, _, _), r in zip(jobs, results, strict=True)
                if s == setting and n == seats
            ]  # fmt: skip
            cells = [setting.name, f"{setting.elo_spread:.0f}"]
            for name in ("ours", "TrueSkill", "OpenSkill", "fit"):
                taus = [r.tau[name] for r in rows]
                cells += [f"{statistics.fmean(taus):.3f}", f"{p5(taus):.3f}"]
            cells += [
                f"{statistics.fmean(r.slope for r in rows):.2f}",
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
