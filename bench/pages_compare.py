"""Byte-for-byte guard of the cold pages' work: every answer the same before and after.

Fetches, with Django's test client on the benchmark federation (``bench/pages.py``'s
database, kept), the pages and API answers of a seeded random sample of players,
matches and ranking pages (the families of ``bench/pages_cold.py``, and a player's
page with ``?game=&month=`` and ``?page=2``), each in English and French, the server
cache emptied first so that every body is computed; writes the sha256 of every body
(the language form's CSRF token, different at each request, blanked out)
by URL to a JSON file. Run it on the code before a change and after, then compare:

    .venv/bin/python bench/pages_compare.py --database quotient_bench --out var/before.json
    ... change the code ...
    .venv/bin/python bench/pages_compare.py --database quotient_bench --out var/after.json
    .venv/bin/python bench/pages_compare.py --compare var/before.json var/after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


#: the one part of a page that differs at each request (the language form's token)
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def urls(count: int, seed: int) -> list[str]:
    from django.db import connection

    from federation.months import month_label
    from ratings.models import RankingEntry, RankingList

    ranking = RankingList.objects.filter(game__key="divisor").order_by("-month", "-revision")[0]
    previous = RankingList.objects.filter(game__key="divisor", month__lt=ranking.month)
    previous = previous.order_by("-month", "-revision").first()
    entries = RankingEntry.objects.filter(ranking=ranking).order_by("position")
    handles = list(entries.values_list("player__handle", flat=True))
    ranked = entries.filter(rank__isnull=False).count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM scoring_match ORDER BY id")
        matches = [row[0] for row in cursor.fetchall()]
    rng = random.Random(seed)
    month = month_label(ranking.month)
    out = ["/", "/matches/", "/api/v1/", f"/rankings/divisor/{month}/"]
    out += [f"/api/v1/rankings/divisor/{month}/"]
    for handle in rng.sample(handles, min(count, len(handles))):
        out += [
            f"/players/{handle}/",
            f"/players/{handle}/?page=2",
            f"/players/{handle}/?game=divisor&month={month}",
            f"/api/v1/players/{handle}/history/",
            f"/api/v1/matches/?player={handle}",
            f"/api/v1/players/{handle}/rankings/divisor/{month}/",
        ]
        if previous is not None:
            out.append(f"/players/{handle}/?game=divisor&month={month_label(previous.month)}")
    for pk in rng.sample(matches, min(count, len(matches))):
        out += [f"/matches/{pk}/", f"/api/v1/matches/{pk}/"]
    pages = max(1, (ranked + 99) // 100)
    for page in rng.sample(range(1, pages + 1), min(count // 10 + 1, pages)):
        out += [f"/rankings/divisor/{month}/?page={page}"]
        out += [f"/api/v1/rankings/divisor/{month}/?page={page}"]
    out += ["/players/no-such-player/", "/api/v1/players/no-such-player/history/"]
    return out


def dump(args: argparse.Namespace) -> None:
    os.environ["DATABASE_URL"] = f"{args.server}/{args.database}"
    os.environ.setdefault("CACHE_URL", "redis://127.0.0.1:6379/12")
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.site.settings"
    os.environ.setdefault("SECRET_KEY", "bench-pages-compare")
    os.environ.update({"DEBUG": "0", "THROTTLE": "0", "SECURE_SSL_REDIRECT": "0"})
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    client = Client()
    sums: dict[str, str] = {}
    for url in urls(args.count, args.seed):
        for language in ("en", "fr"):
            response = client.get(url, headers={"accept-language": language})
            body = CSRF.sub(b'name="csrfmiddlewaretoken" value="-"', response.content)
            digest = hashlib.sha256(body).hexdigest()
            sums[f"{language} {url}"] = f"{response.status_code} {len(body)} {digest}"
    Path(args.out).write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n")
    print(f"{len(sums):,} answers written to {args.out}")


def compare(before: str, after: str) -> int:
    a, b = json.loads(Path(before).read_text()), json.loads(Path(after).read_text())
    differ = [url for url in a if b.get(url) != a[url]]
    missing = [url for url in b if url not in a]
    for url in differ[:20]:
        print(f"DIFFERS {url}: {a[url]} -> {b.get(url)}")
    print(f"{len(a):,} answers compared, {len(differ)} differ, {len(missing)} only after")
    return 1 if differ or missing else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="quotient_bench")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--count", type=int, default=200, help="players and matches (200)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--out", default="var/pages-compare.json")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        raise SystemExit(compare(*args.compare))
    dump(args)


if __name__ == "__main__":
    main()
