"""``/metrics``: the service's Prometheus metrics, for the monitoring server only.

Not public: the scrape must send ``Authorization: Bearer <METRICS_TOKEN>``; with no
``METRICS_TOKEN`` configured the address does not exist (404). The answer holds the
in-process metrics (``core.metrics``: requests by view and status, submissions by
outcome and code) and figures read at scrape time, so that what a Celery worker or a
``manage.py`` command did shows here too without sharing anything but the database:

* ``quotient_month_close_duration_seconds{game}`` and
  ``quotient_month_close_last_success_timestamp_seconds{game}``: the latest published
  run of each game (``RankingRun``: started, finished);
* ``quotient_month_publication_overdue_seconds{game}``: seconds since the deadline of
  the latest closed month while that month has no list of the game (0 once it has);
* ``quotient_import_rows_total{outcome}`` (stored, duplicate, rejected) and
  ``quotient_import_rows_waiting``: every import's rows, from ``ImportJob``;
* ``quotient_celery_queue_length{queue}`` and ``quotient_celery_broker_up``;
* ``quotient_database_up``: 0 when the database did not answer the scrape.

The alert rules that read them are in ``deploy/prometheus/alerts.yml``.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from datetime import datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, OuterRef, Subquery, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from core.error_pages import DATABASE_ERRORS
from core.metrics import scrape_registry
from federation.models import Game
from federation.months import last_day, previous_month
from ratings.models import RankingList, RankingRun
from scoring.models import ImportJob


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """The exposition (Prometheus text format) for a scrape that shows the token."""
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        response = HttpResponse("A bearer token is required.\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    registry = scrape_registry(DatabaseCollector(), BrokerCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)


class DatabaseCollector(Collector):
    """The month close and the imports, read from the database at scrape time."""

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("quotient_database_up", "1 when the database answered the scrape.")
        try:
            families = [*month_close_metrics(), overdue_metric(), *import_metrics()]
        except DATABASE_ERRORS:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield from families


def month_close_metrics() -> list[Metric]:
    """Per game, the duration and end of its latest published run (none: no sample)."""
    duration = GaugeMetricFamily(
        "quotient_month_close_duration_seconds",
        "Duration of the latest month close that published a list, by game.",
        labels=["game"],
    )
    success = GaugeMetricFamily(
        "quotient_month_close_last_success_timestamp_seconds",
        "When the latest month close that published a list ended (Unix time), by game.",
        labels=["game"],
    )
    published = RankingRun.objects.filter(
        game=OuterRef("pk"), status=RankingRun.Status.PUBLISHED, started_at__isnull=False
    ).order_by("-finished_at")
    games = Game.objects.annotate(
        started=Subquery(published.values("started_at")[:1]),
        finished=Subquery(published.values("finished_at")[:1]),
    ).order_by("key")
    for game in games:
        if game.started is None or game.finished is None:
            continue
        duration.add_metric([game.key], (game.finished - game.started).total_seconds())
        success.add_metric([game.key], game.finished.timestamp())
    return [duration, success]


def overdue_metric(now: datetime | None = None) -> Metric:
    """Per game, how long the latest closed month has waited for its list."""
    now = now or timezone.now()
    month = previous_month(timezone.localtime(now).date())
    after_deadline = timezone.make_aware(datetime.combine(last_day(month) + timedelta(1), time()))
    late = max((now - after_deadline).total_seconds(), 0.0)
    listed = set(RankingList.objects.filter(month=month).values_list("game_id", flat=True))
    overdue = GaugeMetricFamily(
        "quotient_month_publication_overdue_seconds",
        "Seconds since the deadline of the latest closed month while it has no list of the "
        "game (0 once published).",
        labels=["game"],
    )
    for pk, key in Game.objects.order_by("key").values_list("pk", "key"):
        overdue.add_metric([key], 0.0 if pk in listed else late)
    return overdue


def import_metrics() -> list[Metric]:
    """Every import's rows by outcome, and the rows still waiting for a worker."""
    sums = ImportJob.objects.aggregate(
        stored=Sum("stored"), duplicates=Sum("duplicates"), done=Sum("done")
    )
    stored, duplicates = sums["stored"] or 0, sums["duplicates"] or 0
    rows = CounterMetricFamily(
        "quotient_import_rows", "Rows of bulk imports processed, by outcome.", labels=["outcome"]
    )
    rows.add_metric(["stored"], stored)
    rows.add_metric(["duplicate"], duplicates)
    rows.add_metric(["rejected"], (sums["done"] or 0) - stored - duplicates)
    pending = ImportJob.objects.filter(
        status__in=(ImportJob.Status.QUEUED, ImportJob.Status.RUNNING)
    ).aggregate(rows=Sum(F("total") - F("done")))
    waiting = GaugeMetricFamily(
        "quotient_import_rows_waiting", "Rows of queued or running imports not yet processed."
    )
    waiting.add_metric([], pending["rows"] or 0)
    return [rows, waiting]


class BrokerCollector(Collector):
    """The Celery queue's length (no sample when tasks run in-process)."""

    def collect(self) -> Iterator[Metric]:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            return
        queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")
        up = GaugeMetricFamily("quotient_celery_broker_up", "1 when the broker answered.")
        try:
            length = queue_length(settings.CELERY_BROKER_URL, queue)
        except Exception:  # kombu's, redis's and socket errors: the broker is down
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        family = GaugeMetricFamily(
            "quotient_celery_queue_length", "Task messages waiting in the queue.", labels=["queue"]
        )
        family.add_metric([queue], length)
        yield family


def queue_length(url: str, queue: str) -> int:
    """Messages waiting in ``queue`` (every priority of it), 0 when it does not exist."""
    from kombu import Connection
    from kombu.exceptions import ChannelError

    with Connection(url, connect_timeout=1, transport_options={"socket_timeout": 1}) as conn:
        conn.ensure_connection(max_retries=1, timeout=1)
        channel: Any = conn.default_channel  # kombu's virtual channel (Redis, memory)
        try:
            return int(channel.queue_declare(queue=queue, passive=True).message_count)
        except ChannelError:
            return 0
