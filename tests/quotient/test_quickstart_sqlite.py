"""The quick start as ``make run`` runs it: SQLite, no Redis, tasks in-process, the
demo's data seeded by ``seed_demo``; every page and API answer its visitors reach
(``quickstart_crawl.py``, anonymously and as the demo's admin) answers without a
server error. The suite runs on PostgreSQL: without this, a statement only
PostgreSQL parses breaks the quick start unseen (the player and ranking pages did)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: what the suite sets and the quick start does not have
SUITE_ONLY = (
    "DATABASE_URL",
    "CACHE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
)


def _quick_start(database: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in SUITE_ONLY}
    # make run's own (DEBUG=1, REQUIRE_2FA=0); THROTTLE=0: the crawl asks hundreds of
    # URLs in seconds, more than an anonymous visitor may
    return env | {
        "DATABASE_URL": f"sqlite:///{database}",
        "DEBUG": "1",
        "REQUIRE_2FA": "0",
        "THROTTLE": "0",
    }


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_every_page_of_the_quick_start_answers_on_sqlite(tmp_path):
    env = _quick_start(tmp_path / "quotient.sqlite3")
    _run(env, "manage.py", "migrate", "--noinput")
    _run(env, "manage.py", "seed_demo", "--matches", "10", "--games", "divisor,9tka,trimorp")
    _run(env, "manage.py", "seed_demo", "--matches", "3", "--games", "dominyam,astronomy")
    answers = json.loads(_run(env, "tests/quotient/quickstart_crawl.py", "500"))
    for visitor, statuses in answers.items():
        failed = {url: status for url, status in statuses.items() if status >= 500}
        assert not failed, (visitor, failed)
        ok = {url for url, status in statuses.items() if status == 200}
        assert len(ok) > 300, (visitor, len(ok))
        # what broke before: the player page, a list's page, the history and list APIs
        for family in ("/players/", "/rankings/divisor/2026-", "/api/v1/rankings/divisor/2026-"):
            assert any(url.startswith(family) for url in ok), (visitor, family)
        assert any(url.endswith("/history/") for url in ok), visitor
        assert any("?player=" in url for url in ok), visitor
        assert any(url.startswith("/matches/") and url[9:-1].isdigit() for url in ok), visitor
