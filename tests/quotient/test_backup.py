"""Backups that restore: dump → restore into a fresh database → ``verify_integrity``
clean, and the lists recomputed from the restored results identical to the stored."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.utils import timezone

ROOT = Path(__file__).resolve().parents[2]
SERVER = "postgres://postgres@127.0.0.1:5432"


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "quotient.settings.test", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def scratch_database():
    name = f"quotient_restore_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"{SERVER}/{name}"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)
def test_dump_restore_verify(tmp_path, games, scratch_database):
    from quotient.demo import publish_demo_rankings, seed_demo
    from ratings.models import RankingEntry, RankingList
    from scoring.models import Match
    from tests.conftest import subprocess_database_url

    today = timezone.localdate()
    seed_demo(matches_per_game=6, today=today)
    assert publish_demo_rankings(today=today) > 0
    source = subprocess_database_url()

    dumped = run(["bash", "deploy/scripts/backup.sh", source, str(tmp_path)])
    assert dumped.returncode == 0, dumped.stderr
    dump = Path(dumped.stdout.strip().splitlines()[-1])
    assert dump.exists() and dump.suffix == ".dump"

    restored = run(["bash", "deploy/scripts/restore.sh", str(dump), scratch_database])
    assert restored.returncode == 0, restored.stderr
    again = run(["bash", "deploy/scripts/restore.sh", str(dump), scratch_database])
    assert again.returncode == 2 and "not empty" in again.stderr

    with psycopg.connect(scratch_database) as conn:
        assert conn.execute("SELECT count(*) FROM scoring_match").fetchone()[0] == (
            Match.objects.count()
        )
        assert conn.execute("SELECT count(*) FROM ratings_rankingentry").fetchone()[0] == (
            RankingEntry.objects.count()
        )
    verified = run([sys.executable, "manage.py", "verify_integrity"], DATABASE_URL=scratch_database)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "clean" in verified.stdout
    assert "  ranking " not in verified.stdout  # no list reported
    assert RankingList.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_verify_integrity_reports_a_damaged_record_and_list(games):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from quotient.demo import publish_demo_rankings, seed_demo
    from ratings.models import RankingEntry
    from scoring.models import Match

    today = timezone.localdate()
    seed_demo(matches_per_game=6, today=today)
    publish_demo_rankings(today=today)
    match = Match.objects.filter(game__key="trimorp").first()
    Match.objects.filter(pk=match.pk).update(fingerprint="0" * 64)
    entry = RankingEntry.objects.order_by("id").first()
    RankingEntry.objects.filter(pk=entry.pk).update(fladub=entry.fladub + 1)
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"(\d+) mismatches") as raised:
        call_command("verify_integrity", stdout=out)
    findings = [line.strip() for line in out.getvalue().splitlines() if line.startswith("  ")]
    damaged = entry.ranking
    # the record: its fingerprint, and every trimorp list whose window holds the match
    # (the results are keyed by fingerprint, so their inputs hash changes)
    assert f"match {match.pk}: its fingerprint does not match its content" in findings
    # the entry: its list recomputes to other entries
    assert (
        f"ranking {damaged.game.key} {damaged.month:%Y-%m} r{damaged.revision}: "
        "recomputing it from the stored results gives other entries"
    ) in findings
    others = [f for f in findings if f.startswith("ranking") and "other entries" not in f]
    assert others, "the damaged record's lists are reported"
    for finding in others:
        assert finding.startswith("ranking trimorp "), finding
        assert finding.endswith("the stored results no longer give its inputs hash"), finding
    assert raised.match(rf"^{len(findings)} mismatches")


@pytest.mark.django_db(transaction=True)
def test_backups_are_private_whatever_the_umask(tmp_path, games):
    """A dump holds password hashes and API tokens: 0600 in a 0700 directory, even
    under umask 022 and into a directory that existed with 0755 (issue 20, defect 11)."""
    from tests.conftest import subprocess_database_url

    existing = tmp_path / "backups"
    existing.mkdir(mode=0o755)
    existing.chmod(0o755)
    fresh = tmp_path / "new" / "backups"
    for target in (existing, fresh):
        script = f'umask 022; bash deploy/scripts/backup.sh "$1" "{target}"'
        dumped = run(
            ["bash", "-c", script, "backup", subprocess_database_url()], BACKUP_METRICS_DIR=""
        )
        assert dumped.returncode == 0, dumped.stderr
        dump = Path(dumped.stdout.strip().splitlines()[-1])
        assert dump.parent == target
        assert oct(dump.stat().st_mode & 0o777) == oct(0o600)
        assert oct(target.stat().st_mode & 0o777) == oct(0o700)
