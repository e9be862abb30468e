"""The documented path for a release 0.1 database: ``upgrade_legacy_layout`` then ``migrate``.

The fixtures are real 0.1 databases (``seed_demo`` plus a tournament round naming two
matches), dumped before the app graph was made one-way: PostgreSQL as ``pg_dump``
SQL, SQLite as the demo's database file. After the upgrade, every row is still there,
the round's matches sit at tables of that round, and the schema is the one a fresh
database migrates to.
"""

from __future__ import annotations

import gzip
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
SERVER = "postgres://postgres@127.0.0.1:5432"

#: table -> (legacy table holding the same rows)
KEPT_ROWS = {
    "federation_club": "tournaments_club",
    "federation_player": "tournaments_player",
    "federation_membership": "tournaments_membership",
    "federation_game": "scoring_game",
    "scoring_match": "scoring_match",
    "scoring_matchseat": "scoring_matchseat",
    "ratings_rankinglist": "ratings_rankinglist",
    "ratings_rankingentry": "ratings_rankingentry",
    "tournaments_round": "tournaments_round",
}
APPS = ("federation", "scoring", "ratings", "tournaments")


def manage(database_url: str, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def pg_database():
    """A scratch PostgreSQL database, dropped afterwards."""
    names = []

    def create() -> str:
        name = f"quotient_upgrade_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        names.append(name)
        return name

    yield create
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        for name in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pg_rows(url: str, sql: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


def pg_counts(url: str, tables: list[str]) -> dict[str, int]:
    return {t: pg_rows(url, f"SELECT count(*) FROM {t}")[0][0] for t in tables}


def pg_schema(url: str) -> set[tuple]:
    """(table, column, type, nullable) of the project's own tables."""
    prefixes = " OR ".join(f"table_name LIKE '{app}\\_%%'" for app in APPS)
    return set(
        pg_rows(
            url,
            "SELECT table_name, column_name, data_type, is_nullable "
            f"FROM information_schema.columns WHERE table_schema = 'public' AND ({prefixes})",
        )
    )


def test_a_postgresql_0_1_database_upgrades_in_place(pg_database):
    legacy_url = f"{SERVER}/{pg_database()}"
    sql = gzip.decompress((FIXTURES / "legacy_0_1.sql.gz").read_bytes())
    subprocess.run(
        ["psql", "-q", "-v", "ON_ERROR_STOP=1", legacy_url], input=sql, check=True, timeout=60
    )  # pg_dump output holds psql meta-commands: load it as a DBA would
    before = pg_counts(legacy_url, sorted(set(KEPT_ROWS.values())))
    round_matches = pg_rows(
        legacy_url, "SELECT id, round_id FROM scoring_match WHERE round_id IS NOT NULL ORDER BY id"
    )
    assert len(round_matches) == 2 and before["scoring_match"] > 20

    assert "Upgraded the 0.1 layout" in manage(legacy_url, "upgrade_legacy_layout")
    manage(legacy_url, "migrate", "--noinput")
    assert "Nothing to upgrade" in manage(legacy_url, "upgrade_legacy_layout")

    after = pg_counts(legacy_url, list(KEPT_ROWS))
    assert after == {new: before[old] for new, old in KEPT_ROWS.items()}
    tables = pg_rows(
        legacy_url, "SELECT match_id, round_id, number FROM tournaments_table ORDER BY match_id"
    )
    assert tables == [(m, r, n) for n, (m, r) in enumerate(round_matches, start=1)]
    seated = pg_rows(
        legacy_url,
        "SELECT t.match_id, ts.seat, ts.player_id FROM tournaments_tableseat ts "
        "JOIN tournaments_table t ON t.id = ts.table_id ORDER BY 1, 2",
    )
    seats = pg_rows(
        legacy_url,
        "SELECT match_id, seat, player_id FROM scoring_matchseat "
        f"WHERE match_id IN ({', '.join(str(m) for m, _ in round_matches)}) ORDER BY 1, 2",
    )
    assert seated == seats
    moved = pg_rows(legacy_url, "SELECT app_label FROM django_content_type WHERE model = 'player'")
    assert moved == [("federation",)]

    fresh_url = f"{SERVER}/{pg_database()}"
    manage(fresh_url, "migrate", "--noinput")
    assert pg_schema(legacy_url) == pg_schema(fresh_url)


def test_the_demo_sqlite_0_1_database_upgrades_in_place(tmp_path):
    path = tmp_path / "quotient.sqlite3"
    path.write_bytes(gzip.decompress((FIXTURES / "legacy_0_1.sqlite3.gz").read_bytes()))
    with sqlite3.connect(path) as conn:
        before = {
            new: conn.execute(f"SELECT count(*) FROM {old}").fetchone()[0]
            for new, old in KEPT_ROWS.items()
        }
    url = f"sqlite:///{path}"
    manage(url, "upgrade_legacy_layout")
    manage(url, "migrate", "--noinput")
    with sqlite3.connect(path) as conn:
        after = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in KEPT_ROWS}
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT count(*) FROM tournaments_table").fetchone()[0] == 2
        columns = [row[1] for row in conn.execute("PRAGMA table_info(scoring_match)")]
    assert after == before
    assert "round_id" not in columns
