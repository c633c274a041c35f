"""How long a tournament's scheduler steps take: the formats alone, then the platform's step.

    uv run python bench/tournament.py [--entrants 64] [--seats 4] [--repeat 3]

Formats: a round-robin of N entrants at K-seat Mia tables, each table played R
times (64, 4 and 3 by default: the affine geometry AG(3, 4), 336 tables, 1,008
matches), a Swiss of N entrants over 7 rounds and a double elimination of N
entrants. A
step is what the server does each time it advances: build the format again
from its parameters, ask for the next tables from all the results so far, and
rank the standings. Results arrive in batches of `TAVOLO_TOURNAMENT_BATCH`.

Platform: the same round-robin through `tournaments.services` on a scratch
SQLite database: every `tournament_advance` (copy finished matches' places onto
their tables, build the format, create the next batch of matches) with each
batch's matches marked finished in between with random places (no bot plays).
Target (docs/benchmarks.md): no step slower than one second.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent / "platform"))

from rich.console import Console  # noqa: E402
from rich.table import Table as RichTable  # noqa: E402

from arena.tournaments import Format, TableResult, make_format  # noqa: E402

BATCH = 64
TARGET_SECONDS = 1.0


def random_places(rng: random.Random, seats: int) -> tuple[int, ...]:
    places = list(range(1, seats + 1))
    rng.shuffle(places)
    return tuple(places)


def format_steps(build: Callable[[], Format], seats: int) -> tuple[int, list[float]]:
    """Play a format with random places in batches: (matches, seconds of each step)."""
    rng = random.Random(1)
    results: list[TableResult] = []
    steps = []
    while True:
        started = time.perf_counter()
        event = build()
        tables = event.next_tables(results)
        event.standings(results)
        steps.append(time.perf_counter() - started)
        if not tables:
            return len(results), steps
        results += [TableResult(table, random_places(rng, seats)) for table in tables[:BATCH]]


def platform_steps(entrants: int, seats: int, repeat: int) -> tuple[int, list[float]]:
    """The round-robin through the platform's services on a scratch database."""
    data = Path(tempfile.mkdtemp(prefix="tavolo-bench-tournament-"))
    os.environ.update(
        TAVOLO_DATA_DIR=str(data),
        SECRET_KEY="bench",
        DJANGO_SETTINGS_MODULE="tavolo_site.settings",
        TAVOLO_TOURNAMENT_BATCH=str(BATCH),
    )
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from accounts.services import user_create
    from bots.models import Bot, BotVersion
    from ladders.models import Ladder
    from matches.models import Match, MatchSeat
    from tournaments.models import Entry, Tournament
    from tournaments.services import tournament_advance, tournament_freeze, tournament_start

    call_command("migrate", verbosity=0)
    ladder = Ladder.objects.create(slug="bench", name="Bench", game="mia", seats=seats)
    owner = user_create(username="bench", password="bench-password-1")
    now = timezone.now()
    tournament = Tournament.objects.create(
        slug="bench", name="Bench", ladder=ladder, format="round-robin", repeat=repeat,
        entries_open_at=now, entries_close_at=now, starts_at=now,
    )  # fmt: skip
    for number in range(entrants):
        bot = Bot.objects.create(owner=owner, ladder=ladder, name=f"bot{number}")
        bot.current_version = BotVersion.objects.create(
            bot=bot, number=1, source="", sha256="0" * 64, size=0, status="accepted"
        )
        bot.save()
        Entry.objects.create(tournament=tournament, bot=bot)
    tournament_freeze(tournament_id=tournament.pk, now=now)
    rng = random.Random(2)
    steps = []
    started = time.perf_counter()
    tournament_start(tournament_id=tournament.pk, now=now)
    steps.append(time.perf_counter() - started)
    while Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING:
        waiting = Match.objects.filter(
            tournament_tables__tournament=tournament, status=Match.Status.QUEUED
        )
        for match in waiting:
            for seat, place in zip(match.seats.all(), random_places(rng, seats), strict=True):
                MatchSeat.objects.filter(pk=seat.pk).update(place=place)
        waiting.update(status=Match.Status.FINISHED)
        started = time.perf_counter()
        tournament_advance(tournament_id=tournament.pk)
        steps.append(time.perf_counter() - started)
    return tournament.tables.count(), steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-platform", action="store_true", help="Measure the formats only.")
    options = parser.parse_args()
    n, k = options.entrants, options.seats
    runs: list[tuple[str, Callable[[], tuple[int, list[float]]]]] = [
        (
            f"round-robin {n}x{k} seats, repeat {options.repeat}",
            lambda: format_steps(
                lambda: make_format("round-robin", entrants=n, seats=k, repeat=options.repeat), k
            ),
        ),
        (
            f"swiss {n}x{k} seats, 7 rounds",
            lambda: format_steps(lambda: make_format("swiss", entrants=n, seats=k, rounds=7), k),
        ),
        (
            f"double elimination {n}, best of 3",
            lambda: format_steps(
                lambda: make_format(
                    "knockout", entrants=n, seats=2, best_of=3, elimination="double"
                ),
                2,
            ),
        ),
    ]
    if not options.no_platform:
        runs.append(
            (
                f"platform round-robin {n}x{k}, repeat {options.repeat}",
                lambda: platform_steps(n, k, options.repeat),
            )
        )
    table = RichTable(title=f"Scheduler steps (results in batches of {BATCH})")
    for column in ("event", "matches", "steps", "median s", "slowest s", "target"):
        table.add_column(column, justify="left" if column == "event" else "right")
    for name, run in runs:
        matches, steps = run()
        slowest = max(steps)
        verdict = "met" if slowest <= TARGET_SECONDS else "MISSED"
        table.add_row(
            name, str(matches), str(len(steps)), f"{statistics.median(steps):.3f}",
            f"{slowest:.3f}", f"<= {TARGET_SECONDS:.0f} s: {verdict}",
        )  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    main()
