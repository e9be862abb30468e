"""The Celery application: broker from settings (Redis in production and tests)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quotient.settings.base")

app = Celery("quotient")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
