#!/usr/bin/env python
"""Django's command-line utility for the Tavolo site (``uv run python manage.py ...``)."""

import os
import sys
from pathlib import Path

PLATFORM_DIR = str(Path(__file__).resolve().parent / "platform")


def main() -> None:
    """Run a Django management command with `platform/` importable."""
    if PLATFORM_DIR not in sys.path:
        sys.path.insert(0, PLATFORM_DIR)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavolo_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
