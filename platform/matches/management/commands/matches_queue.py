"""``manage.py matches_queue``: queued matches by ladder and kind, and the broker's count."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from arena.units import seconds_text
from matches.operations import broker_waiting, queue_rows


class Command(BaseCommand):
    help = "Show the queued matches by ladder and kind, and the messages the broker holds."

    def handle(self, *args: Any, **options: Any) -> None:
        rows = queue_rows()
        for row in rows:
            self.stdout.write(
                f"{row.ladder:<24} {row.kind:<14} {row.queued:>6} queued, "
                f"oldest waiting {seconds_text(row.oldest_seconds)}"
            )
        waiting = broker_waiting()
        broker = "unknown (the broker cannot be reached)" if waiting is None else str(waiting)
        self.stdout.write(f"queued in all: {sum(row.queued for row in rows)}")
        self.stdout.write(f"messages waiting in the broker for the match workers: {broker}")
