"""The alert rules of ``deploy/prometheus/``: each one reads metrics the service's
``/metrics`` or the backup script really export."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest
import yaml
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from federation.models import Game
from federation.months import previous_month
from ratings.services import ranking_publish
from tests.builders import record_month

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
TOKEN = "alerts-test-token-0123456789"


def rules() -> list[dict]:
    groups = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def samples(exposition: str) -> dict[str, list]:
    """Sample name -> its samples, of a text exposition."""
    found: dict[str, list] = {}
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            found.setdefault(sample.name, []).append(sample)
    return found


@pytest.fixture
def backup_metrics(tmp_path) -> dict[str, list]:
    """What ``backup.sh`` leaves for node_exporter after a real backup of the test
    database, with the dump it describes."""
    from tests.conftest import subprocess_database_url

    dumps, textfiles = tmp_path / "dumps", tmp_path / "textfiles"
    textfiles.mkdir()
    done = subprocess.run(
        ["bash", "deploy/scripts/backup.sh", subprocess_database_url(), str(dumps)],
        cwd=ROOT,
        env={**os.environ, "BACKUP_METRICS_DIR": str(textfiles)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (dump,) = dumps.glob("*.dump")
    found = samples((textfiles / "quotient_backup.prom").read_text())
    (size,) = found["quotient_backup_size_bytes"]
    assert size.value == dump.stat().st_size
    return found


@pytest.mark.django_db
def test_the_backup_reports_when_it_was_complete(backup_metrics):
    (stamp,) = backup_metrics["quotient_backup_last_success_timestamp_seconds"]
    assert abs(stamp.value - time.time()) < 120


@pytest.mark.django_db
def test_every_alert_reads_metrics_the_service_exports(
    client, settings, federation, backup_metrics
):
    club, handles = federation
    month = previous_month(timezone.localdate())
    record_month(club=club, handles=handles, month=month, count=10, seed=5)
    ranking_publish(game=Game.objects.get(key="divisor"), month=month)
    settings.METRICS_TOKEN = TOKEN
    client.get("/")
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    exported = set(samples(response.content.decode())) | set(backup_metrics)

    assert len(rules()) >= 4
    for rule in rules():
        named = set(re.findall(r"\bquotient_[a-z0-9_]+\b", rule["expr"]))
        assert named, rule["alert"]
        assert named <= exported, (rule["alert"], named - exported)
        assert rule["labels"]["severity"] and rule["annotations"]["summary"]
    alerts = {rule["alert"] for rule in rules()}
    wanted = {
        "QuotientMonthNotPublished",
        "QuotientServerErrors",
        "QuotientQueueStuck",
        "QuotientBackupTooOld",
    }
    assert wanted <= alerts


def test_the_scrape_configuration_loads_the_rules():
    config = yaml.safe_load((PROMETHEUS / "prometheus.yml").read_text())
    assert config["rule_files"] == ["alerts.yml"]
    (job,) = [job for job in config["scrape_configs"] if job["job_name"] == "quotient"]
    assert job["metrics_path"] == "/metrics" and job["authorization"]["type"] == "Bearer"
