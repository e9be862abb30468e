"""The site the load benchmark (``bench/pages.py``) measures, and what it needs.

The month-close benchmark's federation, built if missing; the database migrated and
vacuumed; the organiser and the objects the URLs name (:class:`Fixtures`); the
submissions the POST endpoint is loaded with (deleted afterwards); and gunicorn with
the deploy configuration under ``bench.site.settings``.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from synthetic import last_closed_month

ROOT = Path(__file__).resolve().parent.parent

MONTH = last_closed_month()
CLUB = "bench-pages"  # the club the submissions are made for (deleted afterwards)
ORGANISER = "bench-pages-organiser"


def published(args) -> bool:
    """Does the database hold the federation, with the list of MONTH published?"""
    import psycopg

    with psycopg.connect(f"{args.server}/postgres", autocommit=True) as conn:
        if not conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [args.database]
        ).fetchone():
            return False
    with psycopg.connect(f"{args.server}/{args.database}") as conn:
        try:
            matches = conn.execute(
                "SELECT count(*) FROM scoring_match m JOIN federation_club c ON c.id = m.club_id"
                " WHERE c.slug = 'bench'"
            ).fetchone()[0]
            lists = conn.execute(
                "SELECT count(*) FROM ratings_rankinglist WHERE month = %s", [MONTH]
            ).fetchone()[0]
        except psycopg.Error:
            return False
    return matches == args.results and lists > 0


def build_federation(args) -> None:
    """The month-close benchmark loads the federation (or reuses it) and publishes MONTH."""
    command = [sys.executable, str(ROOT / "bench" / "ratings_month_close_db.py"), "--keep"]
    command += ["--database", args.database, "--server", args.server, "--repeat", "1"]
    command += ["--players", str(args.players), "--sizes", str(args.results), "--no-verify"]
    print("building the benchmark federation:", " ".join(command[1:]))
    subprocess.run(command, check=True)


#: the server-side cache the benchmark's gunicorn shares, as deployed (Redis): a
#: database of its own, emptied at the start (``clear_cache``)
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/12")
# the server's broker, as deployed: Astronomy analyses queue there after each
# submission (no worker runs them during the benchmark; the queue is emptied after)
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/11")


def setup_django(args) -> None:
    os.environ["DATABASE_URL"] = f"{args.server}/{args.database}"
    os.environ["CACHE_URL"] = CACHE_URL
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.site.settings"
    os.environ.setdefault("SECRET_KEY", "bench-pages-setup")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    vacuum(args)


def vacuum(args) -> None:
    """``VACUUM (ANALYZE)`` the benchmark's database once it is loaded and migrated: a
    federation's database is vacuumed and analysed by autovacuum over time, a freshly
    bulk-loaded one is not yet (and this machine's server runs without autovacuum), so
    without it the planner would guess at row counts and the visibility map would rule
    out index-only scans: the benchmark would measure a database no federation has."""
    import psycopg

    started = time.monotonic()
    with psycopg.connect(f"{args.server}/{args.database}", autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
    print(f"VACUUM (ANALYZE) of {args.database}: {time.monotonic() - started:.1f} s")


@dataclass
class Fixtures:
    token: str
    month: str  # YYYY-MM of the published list
    match: int  # a rated match of that month
    handle: str  # the list's first player
    deep_page: int  # page 900 of the ranked entries, or the last one


def fixtures() -> Fixtures:
    """The organiser who submits (and its token), and the objects the URLs name."""
    from django.contrib.auth import get_user_model

    from federation.models import Club, Membership
    from ratings.models import RankingEntry, RankingList
    from scoring.models import Match

    club, _ = Club.objects.get_or_create(slug=CLUB, defaults={"name": "bench pages"})
    user, _ = get_user_model().objects.get_or_create(username=ORGANISER)
    Membership.objects.get_or_create(user=user, club=club, role=Membership.Role.ORGANISER)
    from quotient.accounts.tokens import token_create

    token = token_create(user=user, name="bench pages")
    ranking = RankingList.objects.filter(game__key="divisor", month=MONTH).order_by("-revision")[0]
    entries = RankingEntry.objects.filter(ranking=ranking)
    ranked = entries.filter(rank__isnull=False).count()
    first = entries.order_by("position").select_related("player")[0]
    match = Match.objects.filter(game__key="divisor", counted_month=MONTH).order_by("pk")[0]
    return Fixtures(
        token=token.key,
        month=f"{MONTH:%Y-%m}",
        match=match.pk,
        handle=first.player.handle,
        deep_page=max(1, min(900, (ranked + 99) // 100)),
    )


def remove_submissions() -> int:
    """Delete the benchmark's submissions (its club's matches, seats and history), and
    empty the server-side cache (a bulk delete sends no ``match_changed``)."""
    from django.core.cache import cache

    from scoring.models import Match

    deleted, _ = Match.objects.filter(club__slug=CLUB).delete()
    cache.clear()
    return deleted


def submissions(path: Path, count: int, players: int, seed: int = 7) -> None:
    """``count`` distinct valid submissions (divisor summaries at tables of 2-4 of the
    federation's players, played today), one JSON document a line."""
    from django.utils import timezone

    rng = random.Random(seed)
    today = timezone.localdate().isoformat()
    seen: set[str] = set()
    with path.open("w") as out:
        while len(seen) < count:
            table = [f"bench{p:06d}" for p in rng.sample(range(1, players + 1), rng.randint(2, 4))]
            points = {h: rng.randrange(0, 60) for h in table}
            pips = {h: (0 if i == 0 else rng.randrange(1, 40)) for i, h in enumerate(table)}
            record = {
                "game": "divisor",
                "rules": {"set": 9},
                "players": table,
                "deals": [{"summary": {"points": points, "pips_left": pips}}],
            }
            body = json.dumps({"club": CLUB, "played_on": today, "record": record})
            if body not in seen:
                seen.add(body)
                out.write(body + "\n")


def astronomy_submissions(path: Path, count: int, players: int, seed: int = 7) -> None:
    """``count`` distinct valid Astronomy submissions (full random 8×8 games of two of
    the federation's players, played today): the records whose analysis used to run in
    the request."""
    from django.utils import timezone

    from quotient.demo import rename_players
    from scoring.engine import engine

    rng = random.Random(seed)
    today = timezone.localdate().isoformat()
    with path.open("w") as out:
        for n in range(count):
            record = engine("astronomy").random_record(seed * 100_003 + n, size=8)
            table = [f"bench{p:06d}" for p in rng.sample(range(1, players + 1), 2)]
            record = rename_players(record, dict(zip(record["players"], table, strict=True)))
            out.write(json.dumps({"club": CLUB, "played_on": today, "record": record}) + "\n")


def purge_queue() -> None:
    """Empty the broker's database of the analyses the submissions queued."""
    import redis

    redis.Redis.from_url(BROKER_URL).flushdb()


def start_server(args) -> subprocess.Popen:
    """gunicorn with the deploy configuration, production settings from the environment."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.site.settings",
        "DATABASE_URL": f"{args.server}/{args.database}",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "THROTTLE": "0",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_COOKIES": "0",
        "AXES_ENABLED": "0",
        "GUNICORN_WORKERS": str(args.workers),
        "GUNICORN_BIND": f"127.0.0.1:{args.port}",
        "CACHE_URL": CACHE_URL,  # shared by the workers, as deployed
    }
    env["CELERY_BROKER_URL"] = BROKER_URL  # analyses queued, not run in the request
    log = open(ROOT / "var" / "bench-pages-gunicorn.log", "w")  # noqa: SIM115 - the server's
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "quotient.wsgi", "-c"]
        + [str(ROOT / "deploy" / "gunicorn.conf.py")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{args.port}/bench/bare/", timeout=2):
                return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(
                    "gunicorn did not come up (var/bench-pages-gunicorn.log)"
                ) from None
            time.sleep(0.3)
