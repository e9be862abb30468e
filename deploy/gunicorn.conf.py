"""gunicorn settings for one Quotient web instance (behind nginx)."""

import multiprocessing
import os
import shutil
import tempfile
from pathlib import Path

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
# Threads per worker (``gthread``): while one request waits on PostgreSQL (a
# submission's round trips, its commit's WAL flush) another uses the worker's CPU.
# Each thread keeps its own database connection (CONN_MAX_AGE): workers x threads of
# every instance, plus the Celery workers' and beat's, must stay under PostgreSQL's
# max_connections (docs/performance.md, issue 23's "third pass"). 1: the sync worker.
threads = int(os.environ.get("GUNICORN_THREADS", 8))
worker_class = "gthread" if threads > 1 else "sync"
timeout = 30
accesslog = "-"
# the request id (core.request_id) ends each access-log line: the application's own
# log lines carry the same id
access_log_format = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(L)ss %({x-request-id}o)s'
)
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Prometheus (quotient.monitoring): every worker writes its counters to files in one
# directory and a scrape, whichever worker answers it, adds them all up. Set before
# the workers import prometheus_client; emptied when gunicorn starts (the systemd
# unit gives it a runtime directory; elsewhere a fresh temporary one).
METRICS_DIR = Path(
    os.environ.get("PROMETHEUS_MULTIPROC_DIR") or tempfile.mkdtemp(prefix="quotient-metrics-")
)
os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(METRICS_DIR)

# Imported here, once, by the master (after the directory is set): ``child_exit`` runs
# in the master's SIGCHLD handler, and two workers ending together (a shutdown) would
# run it twice at once; an import begun in the first and re-entered by the second
# fails half-initialised ("Unhandled exception in main loop")
from prometheus_client.multiprocess import mark_process_dead  # noqa: E402


def on_starting(server):
    shutil.rmtree(METRICS_DIR, ignore_errors=True)
    METRICS_DIR.mkdir(parents=True)


def child_exit(server, worker):
    mark_process_dead(worker.pid)  # its live gauges go; counters stay
