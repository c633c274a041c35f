"""The WSGI entry point for gunicorn: ``gunicorn tavolo_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavolo_site.settings")

application = get_wsgi_application()
