"""Error reporting to Sentry: on when ``SENTRY_DSN`` is set, off otherwise.

The settings call :func:`sentry_init` once; the Django and Celery integrations then
report every unhandled exception of a request or a task (with the request id as the
``request_id`` tag, ``core.request_id``). No personal data is sent (the SDK's
default: no cookies, no user names, no addresses) and no request bodies.
"""

from __future__ import annotations


def sentry_init(*, dsn: str, environment: str, traces_sample_rate: float = 0.0) -> bool:
    """Start reporting to ``dsn``; False (nothing started) when it is empty."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=traces_sample_rate,
        max_request_body_size="never",
    )
    return True
