"""The Prometheus exposition: /metrics on the site, and a small HTTP server in each worker.

The site's /metrics has django-prometheus's request and database metrics,
Tavolo's own counters (`matches.metrics`) and two gauges read from the
database at each scrape: queued matches and the age of the oldest one, by
ladder and kind. It answers only the scrapers the settings allow: a bearer
token (``TAVOLO_METRICS_TOKEN``) or client networks (``TAVOLO_METRICS_NETWORKS``);
with neither set it is off (404).

A process with several children (gunicorn's workers, Celery's prefork pool)
counts in all of them only in prometheus-client's multiprocess mode: set
``PROMETHEUS_MULTIPROC_DIR`` to an empty folder of its own before it starts.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
from collections.abc import Iterator
from wsgiref.simple_server import WSGIServer

from django.conf import settings
from django.db.models import Count, Min
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from accounts.addresses import client_address
from matches.models import Match

logger = logging.getLogger(__name__)


def process_registry() -> CollectorRegistry:
    """This process's metrics, or those of every process sharing its multiprocess folder."""
    if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return registry


class QueueCollector(Collector):
    """Queued matches and the age of the oldest, read from the database at each scrape."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        labels = ["ladder", "kind"]
        depth = GaugeMetricFamily(
            "tavolo_queued_matches", "Matches waiting for a worker.", labels=labels
        )
        age = GaugeMetricFamily(
            "tavolo_oldest_queued_match_age_seconds",
            "How long the oldest queued match has waited since it was last sent to the workers.",
            labels=labels,
        )
        now = timezone.now()
        queued = (
            Match.objects.filter(status=Match.Status.QUEUED)
            .values_list("ladder__slug", "kind")
            .annotate(count=Count("id"), oldest=Min("queued_at"))
            .order_by()
        )
        for ladder, kind, count, oldest in queued:
            depth.add_metric([ladder, kind], count)
            age.add_metric([ladder, kind], (now - oldest).total_seconds())
        yield depth
        yield age


DATABASE_REGISTRY = CollectorRegistry(auto_describe=False)
DATABASE_REGISTRY.register(QueueCollector())


def metrics_allowed(request: HttpRequest) -> bool:
    """Whether the request carries the metrics token or comes from an allowed network."""
    token = settings.TAVOLO_METRICS_TOKEN
    if token:
        offered = request.headers.get("Authorization", "")
        if hmac.compare_digest(offered.encode(), f"Bearer {token}".encode()):
            return True
    try:
        client = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    return any(client in network for network in settings.TAVOLO_METRICS_NETWORKS)


def metrics_view(request: HttpRequest) -> HttpResponse:
    """The site's metrics in Prometheus's text format, for an allowed scraper."""
    if not (settings.TAVOLO_METRICS_TOKEN or settings.TAVOLO_METRICS_NETWORKS):
        return HttpResponse("metrics are off: see docs/deploy.md\n", status=404)
    if not metrics_allowed(request):
        return HttpResponse("not allowed to read the metrics\n", status=403)
    body = generate_latest(process_registry()) + generate_latest(DATABASE_REGISTRY)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def worker_metrics_serve(*, address: str, port: int) -> WSGIServer:
    """Serve this worker's metrics (and its pool's) at http://address:port/metrics."""
    server, _ = start_http_server(port, addr=address, registry=process_registry())
    host, bound = server.server_address[:2]
    logger.info("worker metrics on http://%s:%s/metrics", host, bound)
    return server
