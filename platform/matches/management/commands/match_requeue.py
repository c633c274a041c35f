"""``manage.py match_requeue ID...``: queue matches again and send them to the workers."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from matches.services import match_requeue


class Command(BaseCommand):
    help = "Queue queued, running or failed matches again, ahead of the others."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("match_ids", nargs="+", type=int, metavar="ID")

    def handle(self, *args: Any, **options: Any) -> None:
        refused = []
        for match_id in options["match_ids"]:
            try:
                self.stdout.write(match_requeue(match_id=match_id))
            except ValidationError as error:
                refused.append("; ".join(error.messages))
        if refused:
            raise CommandError("\n".join(refused))
