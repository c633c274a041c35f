"""Play a series of matches between the same bots, rotating their seats.

This is what `tavolo play` runs; it is library code so the command stays a thin
shell and tests can call it directly.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.bots.registry import check_spec, open_bot
from arena.engine import Game
from arena.parallel import play_all
from arena.replay import write_replay
from arena.runner import DEFAULT_TIME_CONTROL, MatchRecord, TimeControl, play_match
from arena.stats import BotTally


@dataclass
class SeriesResult:
    """Totals of a series: per bot, plus decisions and time spent playing."""

    game: str
    tallies: list[BotTally]
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "games": self.games,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 6),
            "bots": [tally.as_json() for tally in self.tallies],
        }


def bot_labels(specs: Sequence[str]) -> list[str]:
    """Display names for the bots; a spec given twice is numbered."""
    labels = []
    for index, spec in enumerate(specs):
        name = Path(spec).name if not spec.startswith("builtin:") else spec
        if specs.count(spec) > 1:
            name = f"{name} #{specs[: index + 1].count(spec)}"
        labels.append(name)
    return labels


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """One match of a series, settled before any is played: who sits where, and its seeds."""

    number: int
    """From 0, in the order the series draws its seeds."""
    order: tuple[int, ...]
    """Seat -> bot."""
    seed: int
    bot_seeds: tuple[int, ...]
    """Each seat's built-in bot seed (a bot file has no seed)."""

    @property
    def stem(self) -> str:
        """The file name of its replay and logs, without the extension."""
        return f"match-{self.number + 1:04d}"


def draw_plan(
    master: random.Random, number: int, order: Sequence[int], match_seed: int | None = None
) -> MatchPlan:
    """The next match's seeds from `master`, its own too unless `match_seed` gives it."""
    drawn = master.getrandbits(128)  # drawn all the same: the bots' seeds stay put
    bot_seeds = tuple(master.getrandbits(64) for _ in order)
    return MatchPlan(number, tuple(order), drawn if match_seed is None else match_seed, bot_seeds)


@dataclass(frozen=True)
class SeriesSetup:
    """What every match of a series shares; sent once to each worker process."""

    game: Game
    specs: tuple[str, ...]
    labels: tuple[str, ...]
    jail: bool
    time_control: TimeControl
    replays: Path | None = None
    logs: Path | None = None

    def play(self, plan: MatchPlan) -> MatchRecord:
        """Play and save the match `plan` settles."""
        game, jail = self.game.name, self.jail
        handles = [
            open_bot(self.specs[bot], game=game, seed=seed, jail=jail, name=self.labels[bot])
            for bot, seed in zip(plan.order, plan.bot_seeds, strict=True)
        ]
        record = play_match(self.game, handles, seed=plan.seed, time_control=self.time_control)
        save_match(record, plan.stem, plan.order, self.labels, self.replays, self.logs)
        return record


def play_series(
    game: Game,
    specs: Sequence[str],
    *,
    games: int,
    seed: int | None = None,
    jail: bool = True,
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    replays: Path | None = None,
    logs: Path | None = None,
    on_match: Callable[[int, MatchRecord], None] | None = None,
    jobs: int = 1,
) -> SeriesResult:
    """Play `games` matches; match k seats bot i at seat (i + k) mod n.

    With a `seed` the first match is played from that very seed (a server
    match's seed gives the same dice and deals), and every later match seed
    and every built-in bot's seed are drawn from it, so the whole series is
    reproducible. Every seed is drawn before the first match, so `jobs`
    processes playing matches side by side (`arena.parallel`) give the same
    matches, replays and totals as one: `on_match` hears of them in order.
    """
    for spec in specs:
        check_spec(spec, game=game.name)
    labels = bot_labels(specs)
    master = random.Random(seed) if seed is not None else random.Random(secrets.randbits(128))
    result = SeriesResult(game=game.name, tallies=[BotTally(label) for label in labels])
    count = len(specs)
    plans = [
        draw_plan(
            master,
            number,
            [(seat - number) % count for seat in range(count)],
            seed if number == 0 else None,
        )
        for number in range(games)
    ]
    setup = SeriesSetup(game, tuple(specs), tuple(labels), jail, time_control, replays, logs)
    for plan, record in zip(plans, play_all(setup, plans, jobs), strict=True):
        tally_match(result, record, plan.order)
        if on_match is not None:
            on_match(plan.number, record)
    return result


def play_seated(
    game: Game,
    specs: Sequence[str],
    labels: Sequence[str],
    order: Sequence[int],
    master: random.Random,
    *,
    jail: bool,
    time_control: TimeControl,
    match_seed: int | None = None,
) -> MatchRecord:
    """Play one match seating bot `order[s]` at seat s; its seeds are drawn from
    `master`, the match's own one too unless `match_seed` gives it."""
    setup = SeriesSetup(game, tuple(specs), tuple(labels), jail, time_control)
    return setup.play(draw_plan(master, 0, order, match_seed))


def tally_match(result: SeriesResult, record: MatchRecord, order: Sequence[int]) -> None:
    """Add one match to the series totals; `order` maps seat -> bot."""
    result.games += 1
    result.decisions += record.decisions
    result.seconds += record.seconds
    for seat, bot in enumerate(order):
        seat_record = record.seats[seat]
        tally = result.tallies[bot]
        tally.add(
            place=record.outcome.places[seat],
            infractions=seat_record.infractions,
            crashed=seat_record.crashed,
        )
        for reason in seat_record.infraction_reasons:
            tally.note(f"infraction: {reason}")
        if seat_record.crashed:
            tally.note(f"crash: {seat_record.crash_reason}", log=seat_record.log)


def save_match(
    record: MatchRecord,
    stem: str,
    order: Sequence[int],
    labels: Sequence[str],
    replays: Path | None,
    logs: Path | None,
) -> None:
    """Write the match's replay and each seat's log under `stem`, where asked."""
    if replays is not None:
        write_replay(replays / f"{stem}.json.gz", record.replay)
    if logs is not None:
        for seat, bot in enumerate(order):
            log = record.seats[seat].log
            if log:
                safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in labels[bot])
                (logs / f"{stem}-seat{seat}-{safe}.log").write_text(log)
        by_decision = {
            str(seat): record.seats[seat].log_entries
            for seat in range(len(order))
            if record.seats[seat].log_entries
        }
        if by_decision:
            (logs / f"{stem}.decisions.json").write_text(json.dumps({"seats": by_decision}))
