"""``manage.py files_orphaned [--delete]``: stored replays and logs no match points to."""

from __future__ import annotations

from argparse import ArgumentParser
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand

from matches.orphans import ORPHAN_MIN_AGE, orphaned_files, orphaned_files_delete


class Command(BaseCommand):
    help = (
        "List the stored replays and logs that no match refers to (runs never recorded); "
        "--delete removes them."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--delete", action="store_true", help="delete the files listed")
        parser.add_argument(
            "--min-age-minutes",
            type=int,
            default=int(ORPHAN_MIN_AGE.total_seconds() // 60),
            help="leave files younger than this alone (default: %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        names = orphaned_files(min_age=timedelta(minutes=options["min_age_minutes"]))
        for name in names:
            self.stdout.write(name)
        if options["delete"]:
            orphaned_files_delete(names=names)
            self.stdout.write(f"deleted {len(names)} orphaned files")
        else:
            self.stdout.write(f"{len(names)} orphaned files (--delete removes them)")
