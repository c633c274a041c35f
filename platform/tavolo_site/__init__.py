"""The Tavolo site: settings, URLs, the Celery app and the `standalone` command."""

from tavolo_site.celery import app as celery_app

__all__ = ["celery_app"]
