# The web and scheduler image: gunicorn (the site) and Celery beat, from one checkout.
# Build from the repository's root: docker build -f deploy/docker/web.Dockerfile -t tavolo-web .
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PROJECT_ENVIRONMENT=/opt/tavolo/.venv \
    PATH=/opt/tavolo/.venv/bin:$PATH \
    DJANGO_SETTINGS_MODULE=tavolo_site.settings \
    TAVOLO_DATA_DIR=/var/lib/tavolo

RUN pip install --no-cache-dir uv \
    && useradd --system --uid 10001 --home-dir /var/lib/tavolo --create-home tavolo

WORKDIR /opt/tavolo
COPY . .
RUN uv sync --locked --no-dev --extra s3 \
    && SECRET_KEY=collectstatic-only python manage.py collectstatic --no-input \
    && install -d -o tavolo -g tavolo /var/lib/tavolo/media

# The site's files (replays, logs) live in /var/lib/tavolo/media: mount a volume there.
USER tavolo
WORKDIR /opt/tavolo/platform
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"
CMD ["gunicorn", "tavolo_site.wsgi", "--bind", "0.0.0.0:8000", "--workers", "2", "--threads", "4", "--access-logfile", "-"]
