"""Refusals of webhooks: an endpoint that cannot be registered (its URL, its events,
its owner), or a delivery that cannot be sent again (a disabled endpoint)."""

from __future__ import annotations

from core.errors import CodedError


class HookError(CodedError):
    """An endpoint refused whole (nothing stored): 400, or 409 for a state."""

    STATUS_BY_CODE = {"webhook-redeliver-disabled": 409}
