"""``manage.py matches_stuck``: running matches whose lease lapsed, queued ones no worker took."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from arena.units import seconds_text
from matches.models import Match
from matches.operations import matches_stuck


class Command(BaseCommand):
    help = (
        "List the running matches whose lease lapsed and the matches queued longer than "
        "TAVOLO_LOST_AFTER_SECONDS; re-queue one with match_requeue."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        stuck = list(matches_stuck(now=now))
        for match in stuck:
            if match.status == Match.Status.RUNNING:
                since = match.heartbeat_at or match.started_at
                what = f"running on {match.claimed_by or 'an unknown worker'}, lease renewed"
            else:
                since, what = match.queued_at, "queued"
            age = seconds_text((now - since).total_seconds()) if since else "?"
            self.stdout.write(
                f"match {match.pk} ({match.ladder.slug}, {match.kind}): {what} {age} ago, "
                f"attempt {match.attempts}"
            )
        self.stdout.write(f"{len(stuck)} stuck matches")
