"""The Celery application: broker from settings (Redis in production and tests)."""

import os

from celery import Celery, signals

from core.request_id import connect_celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quotient.settings.base")

app = Celery("quotient")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
connect_celery()  # a task's log lines carry the id of the request that queued it


@signals.worker_init.connect
@signals.beat_init.connect
def _refuse_to_start_without_a_secret(**kwargs) -> None:
    from django.core.exceptions import ImproperlyConfigured

    from core.env import require_secret_key

    try:
        require_secret_key()
    except ImproperlyConfigured as exc:
        raise SystemExit(str(exc)) from exc  # signals swallow ordinary exceptions
