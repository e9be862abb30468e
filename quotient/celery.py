"""The Celery application: broker from settings (Redis in production and tests)."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quotient.settings.base")

app = Celery("quotient")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.worker_init.connect
@signals.beat_init.connect
def _refuse_to_start_without_a_secret(**kwargs) -> None:
    from django.core.exceptions import ImproperlyConfigured

    from core.env import require_secret_key

    try:
        require_secret_key()
    except ImproperlyConfigured as exc:
        raise SystemExit(str(exc)) from exc  # signals swallow ordinary exceptions
