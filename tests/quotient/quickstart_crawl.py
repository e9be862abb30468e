"""Crawl the quick start's site (``make run``: SQLite, tasks in-process) as its
visitors would, and print every answer's status as JSON: run in a subprocess by
``test_quickstart_sqlite.py``, with the quick start's settings and database.

From the home page, the lists and the API root, it follows every link of the site
that a page or an API answer shows (HTML ``href``, JSON URLs), fills the API root's
URI templates with the demo's objects, and asks each URL once, anonymously and then
as the demo's admin (whose pages show more). ``--limit``: how many URLs per visitor.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quotient.settings.base")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402

from federation.models import Club, Game, Player  # noqa: E402
from ratings.models import RankingEntry, RankingList  # noqa: E402
from scoring.models import Match  # noqa: E402
from tournaments.models import Tournament  # noqa: E402

settings.ALLOWED_HOSTS = ["testserver"]

#: a page's links, and an API answer's URLs (absolute, on the test client's host)
HREF = re.compile(r'href="(/[^"#\s]*)"')
URL = re.compile(r'"https?://testserver(/[^"#\s]*)"')
#: links not to follow: leaving the session, the admin's forms, files
SKIP = ("/logout", "/static/", "/admin/", "/media/", "/delete", "/i18n/", "{")


def seeds() -> list[str]:
    """The entry points, and the API's templates filled with the demo's objects."""
    urls = ["/", "/rankings/", "/players/", "/matches/", "/tournaments/", "/clubs/", "/api/v1/"]
    players = list(Player.objects.order_by("id").values_list("handle", flat=True)[:6])
    lists = list(RankingList.objects.select_related("game").order_by("id")[:8])
    for handle in players:
        urls += [
            f"/players/{handle}/",
            f"/api/v1/players/{handle}/",
            f"/api/v1/players/{handle}/history/",
            f"/api/v1/matches/?player={handle}",
            f"/matches/?player={handle}",
        ]
    for entry in RankingEntry.objects.select_related("player", "ranking__game")[:8]:
        handle, game = entry.player.handle, entry.ranking.game.key
        month = entry.ranking.month.strftime("%Y-%m")
        urls.append(f"/api/v1/players/{handle}/rankings/{game}/{month}/")
        urls.append(f"/players/{handle}/?game={game}&month={month}")
    if len(players) > 1:
        urls.append(f"/api/v1/players/{players[0]}/vs/{players[1]}/")
        urls.append(f"/players/{players[0]}/vs/{players[1]}/")
    for ranking in lists:
        game, month = ranking.game.key, ranking.month.strftime("%Y-%m")
        urls += [
            f"/rankings/{game}/{month}/",
            f"/rankings/{game}/{month}/?page=2",
            f"/api/v1/rankings/{game}/{month}/",
            f"/api/v1/rankings/{game}/{month}/?page=2",
            f"/api/v1/rankings/{game}/",
        ]
    for key in Game.objects.values_list("key", flat=True):
        urls += [f"/rankings/{key}/", f"/api/v1/matches/?game={key}"]
    for pk in Match.objects.order_by("-id").values_list("id", flat=True)[:10]:
        urls += [f"/matches/{pk}/", f"/api/v1/matches/{pk}/"]
    for slug in Club.objects.values_list("slug", flat=True)[:3]:
        urls += [f"/api/v1/clubs/{slug}/", f"/api/v1/clubs/{slug}/stats/"]
    for slug in Tournament.objects.values_list("slug", flat=True)[:3]:
        urls += [f"/api/v1/tournaments/{slug}/"]
    return urls


def crawl(client: Client, limit: int) -> dict[str, int]:
    """Every URL reached from ``seeds()``, at most ``limit``, with its status."""
    statuses: dict[str, int] = {}
    queue = deque(seeds())
    while queue and len(statuses) < limit:
        url = queue.popleft()
        if url in statuses or any(part in url for part in SKIP):
            continue
        accept = "application/json" if url.startswith("/api/") else "text/html"
        if "format=" in url:  # the format asked in the URL: no Accept to refuse it
            accept = "*/*"
        response = client.get(url, HTTP_ACCEPT=accept)
        statuses[url] = response.status_code
        kind = response.get("Content-Type", "")
        if response.status_code != 200 or not ("html" in kind or "json" in kind):
            continue
        links = (URL if "json" in kind else HREF).findall(response.content.decode())
        for link in links:
            link = link.replace("&amp;", "&")
            if link not in statuses:
                queue.append(link)
    return statuses


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    anonymous = Client(raise_request_exception=False)
    admin = Client(raise_request_exception=False)
    admin.force_login(User.objects.get(username="admin"))
    print(json.dumps({"anonymous": crawl(anonymous, limit), "admin": crawl(admin, limit)}))


if __name__ == "__main__":
    main()
