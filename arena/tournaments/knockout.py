"""Knockout for two-seat games: single or double elimination of best-of-M series.

Entrants are numbered in seed order (0 is the best seed, e.g. the highest
rating). A series is won by the first to win M//2 + 1 games; the better seed
sits first in odd-numbered games and second in even ones. A drawn game counts
for neither side; a series still undecided after 2M games goes to whoever leads
it, or to the better seed when level.

- **Single elimination**: when N is not a power of two, the first round is
  played by the 2(N - P) worst seeds (P the largest power of two below N) and
  the others have a bye; every round pairs the best seed left with the worst.
- **Double elimination**: an entrant is out after losing two series. Each
  round, the entrants with no loss play each other, and so do those with one
  loss (best seed against worst; an odd one out has a bye, the one with fewest
  byes and then the best seed). When one entrant of each kind is left they play
  the final; if the one with a loss wins it, a deciding final follows.

Standings: the champion first, then by the round in which each entrant went
out (later is better), then by points of the games played and the stated
tie-breaks of `arena.tournaments.standings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.tournaments.round_robin import check_count
from arena.tournaments.standings import Standing, rank, tally
from arena.tournaments.tables import Table, TableResult, TournamentError, by_key, place_points


@dataclass
class Series:
    """One best-of series between two entrants (`high` the better seed)."""

    round: int
    stage: str
    number: int
    high: int
    low: int

    def table(self, game: int) -> Table:
        seats = (self.high, self.low) if game % 2 else (self.low, self.high)
        return Table(self.round, self.stage, self.number, game, seats)


def series_outcome(
    series: Series, best_of: int, done: dict[str, TableResult]
) -> tuple[int | None, list[Table]]:
    """(winner or None, the games to play now) for `series` given the results."""
    needed = best_of // 2 + 1
    wins = {series.high: 0, series.low: 0}
    game = 1
    while (result := done.get(series.table(game).key)) is not None:
        high_place, low_place = result.place_of(series.high), result.place_of(series.low)
        if high_place != low_place:
            wins[series.high if high_place < low_place else series.low] += 1
        game += 1
    played = game - 1
    for entrant, count in wins.items():
        if count >= needed:
            return entrant, []
    if played >= 2 * best_of:
        return (series.low if wins[series.low] > wins[series.high] else series.high), []
    more = min(needed - wins[series.high], needed - wins[series.low], 2 * best_of - played)
    return None, [series.table(game + offset) for offset in range(more)]


def fold(entrants: Sequence[int]) -> list[tuple[int, int]]:
    """Best seed against worst, second against second-worst, and so on."""
    ordered = sorted(entrants)
    return [(ordered[i], ordered[-1 - i]) for i in range(len(ordered) // 2)]


class _Knockout:
    """The shared machinery: play the bracket forward from the results, round by round."""

    lives = 1

    def __init__(
        self,
        entrants: int,
        *,
        best_of: int = 1,
        seed: int = 0,
        points: Sequence[float] | None = None,
    ) -> None:
        if entrants < 2:
            raise TournamentError(f"a knockout needs at least 2 entrants, not {entrants}")
        check_count("best_of", best_of)
        if best_of % 2 == 0:
            raise TournamentError(f"a best-of series needs an odd number of games, not {best_of}")
        self.entrants, self.seats, self.best_of, self.seed = entrants, 2, best_of, seed
        self.points = place_points(2, points)

    def round_series(self, number: int, losses: list[int], byes: list[int]) -> list[Series]:
        raise NotImplementedError

    def _replay(self, results: Sequence[TableResult]) -> tuple[list[Table], list[int], list[int]]:
        """(tables to play now, losses per entrant, round each entrant went out in)."""
        done = by_key(results)
        losses = [0] * self.entrants
        out_in = [0] * self.entrants
        byes = [0] * self.entrants
        number = 1
        while sum(count < self.lives for count in losses) > 1:
            pending: list[Table] = []
            winners: dict[int, int] = {}
            for series in self.round_series(number, losses, byes):
                winner, tables = series_outcome(series, self.best_of, done)
                pending += tables
                if winner is not None:
                    winners[series.number] = winner
                    loser = series.low if winner == series.high else series.high
                    losses[loser] += 1
                    if losses[loser] == self.lives:
                        out_in[loser] = number
            if pending:
                return pending, losses, out_in
            number += 1
        return [], losses, out_in

    def next_tables(self, results: Sequence[TableResult]) -> list[Table]:
        return self._replay(results)[0]

    def standings(self, results: Sequence[TableResult]) -> list[Standing]:
        pending, losses, out_in = self._replay(results)
        lines = tally(self.entrants, results, self.points)
        for line in lines:
            alive = losses[line.entrant] < self.lives
            if alive:
                line.status = "in" if pending else "champion"
            else:
                line.status = f"out in round {out_in[line.entrant]}"
        return rank(
            lines,
            results,
            seed=self.seed,
            first=lambda line: (losses[line.entrant] >= self.lives, -out_in[line.entrant]),
        )


class SingleElimination(_Knockout):
    lives = 1

    def round_series(self, number: int, losses: list[int], byes: list[int]) -> list[Series]:
        alive = [e for e in range(self.entrants) if losses[e] == 0]
        if number == 1:
            power = 1 << (len(alive).bit_length() - 1)
            if power != len(alive):
                alive = alive[len(alive) - 2 * (len(alive) - power) :]
        return [
            Series(number, "", index, high, low)
            for index, (high, low) in enumerate(fold(alive), start=1)
        ]


class DoubleElimination(_Knockout):
    lives = 2

    def round_series(self, number: int, losses: list[int], byes: list[int]) -> list[Series]:
        unbeaten = [e for e in range(self.entrants) if losses[e] == 0]
        once = [e for e in range(self.entrants) if losses[e] == 1]
        if len(unbeaten) + len(once) == 2:
            high, low = sorted(unbeaten + once)
            return [Series(number, "final", 1, high, low)]
        series = []
        for stage, pool in (("W", unbeaten), ("L", once)):
            if len(pool) < 2:
                continue
            if len(pool) % 2:
                resting = min(pool, key=lambda e: (byes[e], e))
                byes[resting] += 1
                pool = [e for e in pool if e != resting]
            series += [
                Series(number, stage, index, high, low)
                for index, (high, low) in enumerate(fold(pool), start=1)
            ]
        return series
