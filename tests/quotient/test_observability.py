"""Request ids in answers, JSON logs and Celery tasks; errors reported to Sentry."""

from __future__ import annotations

import gzip
import io
import json
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import sentry_sdk
from django.test import Client

from core.request_id import HEADER, RequestIdFilter, current_request_id
from core.sentry import sentry_init
from tests.conftest import WORKER_LOG


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """What the console handler of ``settings.LOGGING`` writes, in a buffer."""
    (handler,) = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RequestIdFilter) for f in h.filters)
    ]
    buffer = io.StringIO()
    previous = handler.setStream(buffer)  # type: ignore[attr-defined]
    yield buffer
    handler.setStream(previous)  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_every_answer_carries_a_request_id(client):
    made = client.get("/")["X-Request-ID"]
    assert len(made) == 32 and made != client.get("/")["X-Request-ID"]
    given = client.get("/", HTTP_X_REQUEST_ID="nginx-0123456789abcdef")
    assert given[HEADER] == "nginx-0123456789abcdef"
    forged = client.get("/", HTTP_X_REQUEST_ID="two words\nand a line")
    assert forged[HEADER] != "two words\nand a line" and len(forged[HEADER]) == 32


@pytest.mark.django_db
def test_log_lines_are_json_objects_with_the_request_id(client, log_lines):
    response = client.get("/no-such-page/")
    lines = [json.loads(line) for line in log_lines.getvalue().splitlines()]
    (warning,) = [line for line in lines if line["logger"] == "django.request"]
    assert warning["level"] == "WARNING" and "/no-such-page/" in warning["message"]
    assert warning["request_id"] == response[HEADER]
    assert {"time", "task_id"} <= warning.keys()


@pytest.mark.django_db
def test_a_task_queued_during_a_request_carries_its_id_in_a_header():
    from kombu import Queue

    from quotient.celery import app

    queue = f"request-id-test-{uuid.uuid4().hex[:8]}"
    token = current_request_id.set("request-under-test-01")
    try:
        app.send_task("quotient.health.ping", args=["carried"], queue=queue)
    finally:
        current_request_id.reset(token)
    with app.connection_for_write() as conn:
        message = conn.SimpleQueue(Queue(queue)).get(timeout=5)
        message.ack()
        conn.default_channel.queue_delete(queue)
    assert message.headers["request_id"] == "request-under-test-01"
    assert message.headers["task"] == "quotient.health.ping"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_workers_log_lines_carry_the_id_of_the_request_that_queued_the_task(
    celery_worker_process,
):
    from quotient.health import ping

    rid = f"worker-test-{uuid.uuid4().hex}"
    token = current_request_id.set(rid)
    try:
        assert ping.delay(rid).get(timeout=30) == rid
    finally:
        current_request_id.reset(token)
    log = WORKER_LOG
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the worker's handler flushes each line
        lines = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
        found = [line for line in lines if line.get("message") == f"health ping: {rid}"]
        if found:
            break
    assert found and found[0]["request_id"] == rid and found[0]["task_id"] not in ("", "-")


class _Collector(BaseHTTPRequestHandler):
    """A stand-in Sentry: keeps every envelope POSTed to it."""

    received: list[bytes] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        self.received.append(body)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def sentry_server() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Collector.received = []
    yield f"http://public@127.0.0.1:{server.server_port}/1"
    server.shutdown()


@pytest.mark.django_db
def test_errors_are_reported_to_sentry_only_when_a_dsn_is_set(settings, sentry_server):
    assert not sentry_sdk.get_client().is_active()  # no SENTRY_DSN in the test settings
    assert sentry_init(dsn="", environment="test") is False
    assert not sentry_sdk.get_client().is_active()

    settings.ROOT_URLCONF = "tests.quotient.boom_urls"
    assert sentry_init(dsn=sentry_server, environment="test") is True
    try:
        response = Client(raise_request_exception=False).get("/boom")
        sentry_sdk.flush(timeout=5)
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)  # off again for the other tests
    assert response.status_code == 500
    events = [
        json.loads(line)
        for body in _Collector.received
        for line in body.splitlines()
        if b'"exception"' in line
    ]
    (event,) = events
    (exception,) = event["exception"]["values"]
    assert exception["type"] == "Boom" and event["environment"] == "test"
    assert event["tags"]["request_id"] == response[HEADER]
    assert not sentry_sdk.get_client().is_active()
