"""``manage.py collusion_report``: pairs of bots that do better together than their ratings say."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.cli.safe_text import visible
from bots.models import Bot
from ladders.models import Ladder
from ranked.collusion import MIN_TABLES, THRESHOLD, suspicious_pairs


class Command(BaseCommand):
    help = (
        "List, for each ladder, the pairs of bots whose ranked results together depart "
        "from what their ratings predict (ranked.collusion)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ladder", help="Only this ladder (its slug).")
        parser.add_argument("--threshold", type=float, default=THRESHOLD, help="z to flag.")
        parser.add_argument("--min-tables", type=int, default=MIN_TABLES)

    def handle(self, *args: Any, **options: Any) -> None:
        ladders = Ladder.objects.order_by("slug")
        if options["ladder"]:
            ladders = ladders.filter(slug=options["ladder"])
            if not ladders.exists():
                raise CommandError(f"no ladder {options['ladder']!r}")
        flagged = 0
        for ladder in ladders:
            pairs = suspicious_pairs(
                ladder=ladder, threshold=options["threshold"], min_tables=options["min_tables"]
            )
            ids = [bot for pair in pairs for bot in (pair.first, pair.second)]
            names = Bot.objects.select_related("owner").in_bulk(ids)
            for pair in pairs:
                first, second = names[pair.first], names[pair.second]
                self.stdout.write(
                    f"{ladder.slug}: {visible(first.name)} ({first.owner}) and"
                    f" {visible(second.name)} ({second.owner}): {pair.tables} tables together,"
                    f" {pair.excess:+.1f} points over their ratings, z {pair.z:.1f}"
                )
            flagged += len(pairs)
        if not flagged:
            self.stdout.write("no pair departs from its ratings")
