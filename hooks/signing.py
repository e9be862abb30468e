"""Signatures of the Standard Webhooks specification (https://www.standardwebhooks.com):
``webhook-id`` (the event's message id, the same at every attempt: receivers drop
repeats by it), ``webhook-timestamp`` (the attempt's time, whole seconds since 1970:
receivers refuse old ones) and ``webhook-signature`` (``v1,`` and the base64
HMAC-SHA256, keyed by the endpoint's secret, of ``id.timestamp.body``).

A *secret* is ``whsec_`` and 24 random bytes in base64, as the specification writes it.
"""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

PREFIX = "whsec_"


def secret_new() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(24)).decode("ascii")


def message_id_new() -> str:
    """A message id: ``msg_`` and 22 random URL-safe characters."""
    return "msg_" + secrets.token_urlsafe(16)


def signed_headers(*, secret: str, message_id: str, at: datetime, body: str) -> dict[str, str]:
    """The three headers of an attempt made at ``at`` to send ``body``."""
    moment = at.astimezone(UTC)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, moment, body),
    }
