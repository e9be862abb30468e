"""Fixtures of the webhook tests: a real HTTP server on 127.0.0.1 (port 0) that keeps
every request, answers with the statuses it is told, and can hold an answer back."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: str


@dataclass
class Receiver:
    """What the server got, and how it answers: ``statuses`` in turn (then 200)."""

    port: int = 0
    requests: list[Received] = field(default_factory=list)
    statuses: deque[int] = field(default_factory=deque)
    released: threading.Event = field(default_factory=threading.Event)
    changed: threading.Condition = field(default_factory=threading.Condition)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def answer(self, *statuses: int) -> None:
        self.statuses.extend(statuses)

    def wait_for(self, count: int, timeout: float = 60) -> list[Received]:
        with self.changed:
            arrived = self.changed.wait_for(lambda: len(self.requests) >= count, timeout)
        assert arrived, f"{len(self.requests)} of {count} requests arrived"
        return self.requests

    def note(self, request: Received) -> int:
        with self.changed:
            self.requests.append(request)
            status = self.statuses.popleft() if self.statuses else 200
            self.changed.notify_all()
        return status


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        received = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        status = self.server.receiver.note(received)
        self.server.receiver.released.wait(timeout=60)  # held back when the test says so
        self.send_response(status)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    receiver: Receiver

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that gave up (a timeout test) is no error of the server


@pytest.fixture
def receiver():
    server = _Server(("127.0.0.1", 0), _Handler)
    server.receiver = Receiver(port=server.server_address[1])
    server.receiver.released.set()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.receiver
    server.receiver.released.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def endpoint(club, organiser, receiver):
    """An endpoint of club lyon subscribed to every event, at the receiver."""
    from hooks.events import NAMES
    from hooks.services import endpoint_create

    return endpoint_create(url=receiver.url, events=NAMES, club=club, by=organiser)


@pytest.fixture
def production(settings):
    """Webhook addresses checked as in production: no private or loopback address."""
    settings.WEBHOOK_ALLOW_PRIVATE = False
