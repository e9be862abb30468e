"""A real SMTP server for the tests (aiosmtpd, in the test's process) and Celery
tasks run eagerly: the notification mails' tests read what the server received."""

from __future__ import annotations

import email
import socket
from email import policy
from email.message import Message

import pytest
from aiosmtpd.controller import Controller


class Inbox:
    """An aiosmtpd handler keeping the mails it accepts; it can refuse the next N."""

    def __init__(self) -> None:
        self.mails: list[Message] = []
        self.refuse = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.refuse:
            self.refuse -= 1
            return "451 4.3.0 try again later"
        self.mails.append(
            email.message_from_bytes(envelope.original_content, policy=policy.default)
        )
        return "250 OK"


@pytest.fixture
def smtp(settings):
    """A real SMTP server on a free port; the site's mail goes to it."""
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd's own check cannot use 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def eager():
    from quotient.celery import app

    """Celery tasks run in the test's process (their retries too)."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
