"""``manage.py tavolo_health``: the checks of /readyz from a shell; exits 1 if not ready."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tavolo_site.health import readiness


class Command(BaseCommand):
    help = (
        "Check the database, the broker, the workers and their jail as /readyz does; "
        "exits with status 1 when the site is not ready."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        checks = readiness()
        for name, check in checks.items():
            details = ", ".join(f"{key} {value}" for key, value in check.detail.items())
            mark = "ok" if check.ok else "FAILED"
            self.stdout.write(f"{name:<9} {mark}" + (f"  ({details})" if details else ""))
        failed = [name for name, check in checks.items() if not check.ok]
        if failed:
            raise CommandError(f"not ready: {', '.join(failed)}")
        self.stdout.write("ready")
