"""Prometheus metrics of the process, and the middleware that counts every answer.

Words used here:

* **in-process metric** — a counter or histogram this process increments
  (``prometheus_client``): requests answered, submissions stored or refused. Under
  gunicorn each worker counts its own; with ``PROMETHEUS_MULTIPROC_DIR`` set (gunicorn
  sets it, ``deploy/gunicorn.conf.py``) they write to files there and a scrape adds
  every worker's files up.
* **scrape-time metric** — a figure read from the database or the broker when
  ``/metrics`` is scraped (``quotient.monitoring``): what a Celery worker or a
  ``manage.py`` command did shows on the web's ``/metrics`` without sharing files.
* **view** — the name of the URL pattern that answered (``match-list``,
  ``admin:index``), ``unresolved`` when none did (a 404 or a middleware's answer):
  a bounded set of label values, unlike paths.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

#: seconds; a page is expected within 25 ms, an import upload or an admin list within 2 s
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

HTTP_REQUESTS = Counter(
    "quotient_http_requests",
    "HTTP requests answered, by view, method and status.",
    ["view", "method", "status"],
)
HTTP_LATENCY = Histogram(
    "quotient_http_request_duration_seconds",
    "Time from the request reaching Django to its answer, by view and status.",
    ["view", "status"],
    buckets=LATENCY_BUCKETS,
)


def view_label(request: HttpRequest) -> str:
    """The name of the URL pattern that answered ``request`` (``unresolved``: none)."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unresolved"
    return match.view_name or match._func_path


class RequestMetricsMiddleware:
    """Counts and times every answer (first in ``MIDDLEWARE``: the other middlewares'
    answers, a lockout's 429 or a bad path's 400, are counted too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        view, status = view_label(request), str(response.status_code)
        method = request.method if request.method in METHODS else "other"
        HTTP_REQUESTS.labels(view=view, method=method, status=status).inc()
        HTTP_LATENCY.labels(view=view, status=status).observe(elapsed)
        return response


class _Forward(Collector):
    """This process's own registry, as one collector of a scrape's registry."""

    def collect(self) -> Iterable:
        return REGISTRY.collect()


def scrape_registry(*collectors: Collector) -> CollectorRegistry:
    """A registry for one scrape: the in-process metrics (every gunicorn worker's, from
    ``PROMETHEUS_MULTIPROC_DIR`` when it is set), then ``collectors``."""
    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)
    else:
        registry.register(_Forward())
    for collector in collectors:
        registry.register(collector)
    return registry
