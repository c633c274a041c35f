"""``manage.py ladders_seed``: create the default ladders and their house bots."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bots.house import ladders_seed


class Command(BaseCommand):
    help = "Create the default ladders (and every ladder's house bots) if missing."

    def handle(self, *args: Any, **options: Any) -> None:
        for ladder in ladders_seed():
            self.stdout.write(f"{ladder.slug}: {ladder.name}")
