import pytest

from quotient.celery import app
from quotient.health import ping


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok", "status": "ok"}


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_is_down(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"].startswith("error")


@pytest.mark.worker
def test_celery_round_trip_through_a_real_worker(celery_worker_process):
    result = ping.delay("bonjour")
    assert result.get(timeout=30) == "bonjour"
    # the reply came from the worker process, not from an eager in-process call
    assert not app.conf.task_always_eager
    assert result.backend.__class__.__name__ == "RedisBackend"
