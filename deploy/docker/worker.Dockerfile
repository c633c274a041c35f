# The match worker image: Celery on both queues, bubblewrap, the unprivileged bot user and
# Debian's python3.11 (the bots' runtime inside the jail: /usr/bin/python3.11).
# Build from the repository's root: docker build -f deploy/docker/worker.Dockerfile -t tavolo-worker .
# Run it with the seccomp and AppArmor profiles beside this file (docs/deploy.md, "Containers").
FROM debian:bookworm-slim

RUN apt-get update \
    && apt-get install --yes --no-install-recommends \
        bubblewrap python3.11 python3.11-venv python3-pip libseccomp2 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && pip install --no-cache-dir --break-system-packages uv \
    && useradd --system --user-group --no-create-home --shell /usr/sbin/nologin tavolo-bot

ENV PYTHONUNBUFFERED=1 \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PROJECT_ENVIRONMENT=/opt/tavolo/.venv \
    UV_PYTHON=/usr/bin/python3.11 \
    UV_PYTHON_DOWNLOADS=never \
    PATH=/opt/tavolo/.venv/bin:$PATH \
    DJANGO_SETTINGS_MODULE=tavolo_site.settings \
    TAVOLO_DATA_DIR=/var/lib/tavolo

WORKDIR /opt/tavolo
COPY . .
RUN uv sync --locked --no-dev --extra s3 && install -d /var/lib/tavolo/media

# Root inside the container, so that each jail may get its own cgroup when the container's
# cgroup is writable; bwrap itself runs as tavolo-bot, and the bot inside it has no capability.
WORKDIR /opt/tavolo/platform
HEALTHCHECK --interval=30s --timeout=10s --retries=3 \
    CMD celery -A tavolo_site inspect ping --destination "worker@$(hostname)" --timeout 5
# Two matches at once per container: about one per core (docs/deploy.md, "Concurrency").
CMD ["sh", "-c", "exec celery -A tavolo_site worker --queues matches,default --concurrency 2 --hostname worker@$(hostname) --loglevel INFO"]
