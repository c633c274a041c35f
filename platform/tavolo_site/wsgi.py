"""The WSGI entry point for gunicorn: ``gunicorn tavolo_site.wsgi``."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavolo_site.settings")

application = get_wsgi_application()

# What start-up made (modules, settings, models, URL patterns) lives as long as the process.
# Out of the collector's sight, a full collection walks only what requests made since: it
# stops a worker's threads for a few milliseconds rather than a few hundred.
gc.collect()
gc.freeze()
