"""Cold pages for the load benchmark (``bench/pages.py``): a random object each request.

One URL hammered is answered by its cache; real traffic is not one URL. Each family
here names a different object at every request, drawn (seeded) from the whole
federation: a player's page, history or matches among every player of the published
list, a match among the million, a page of the ranking among all of its pages. The
paths are written to a file, one a line, shuffled; every run of a family (the warm-up
and each concurrency level) reads a slice of its own, so no object is asked twice in
a family's runs and a player page is always a miss of the server's cache (emptied at
the start). ``pages.lua`` cycles through the slice (thread t of n reads lines
t, t + n, ...).

Targets at c=10 against the bare view of the same run: every API family >= 0.5,
every HTML family >= 0.25, p95 <= 50 ms; p95 <= 25 ms at c=1.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: kind -> minimum fraction of the bare view at c=10
COLD_FRACTION = {"api-cold": 0.5, "html-cold": 0.25}
COLD_P95_C10_MS = 50.0
COLD_P95_C1_MS = 25.0
#: objects per family's file (fewer when the federation has fewer)
PER_FAMILY = 120_000


@dataclass(frozen=True)
class Family:
    name: str
    kind: str  # api-cold | html-cold
    paths: Path  # one path a line, shuffled; each run reads a slice of its own


def cold_families(month: str, seed: int = 23) -> list[Family]:
    """The random-object families, their path files written under ``var/``."""
    from django.db import connection

    from ratings.models import RankingEntry, RankingList

    ranking = RankingList.objects.filter(game__key="divisor", month=f"{month}-01")
    ranking = ranking.order_by("-revision")[0]
    handles = list(
        RankingEntry.objects.filter(ranking=ranking)
        .order_by("position")
        .values_list("player__handle", flat=True)
    )
    ranked = RankingEntry.objects.filter(ranking=ranking, rank__isnull=False).count()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT m.id FROM scoring_match m JOIN federation_club c ON c.id = m.club_id"
            " WHERE c.slug = 'bench' ORDER BY m.id"
        )
        matches = [row[0] for row in cursor.fetchall()]
    rng = random.Random(seed)
    players = rng.sample(handles, min(PER_FAMILY, len(handles)))
    match_ids = rng.sample(matches, min(PER_FAMILY, len(matches)))
    pages = max(1, (ranked + 99) // 100)
    ranking_pages = [rng.randint(1, pages) for _ in range(PER_FAMILY)]
    rankings = f"rankings/divisor/{month}/"
    rows = [
        ("player HTML, random", "html-cold", [f"/players/{h}/" for h in players]),
        ("player history API, random", "api-cold", [f"/api/v1/players/{h}/history/" for h in players]),
        ("match API, random", "api-cold", [f"/api/v1/matches/{m}/" for m in match_ids]),
        ("match HTML, random", "html-cold", [f"/matches/{m}/" for m in match_ids]),
        ("matches ?player= API, random", "api-cold", [f"/api/v1/matches/?player={h}" for h in players]),
        ("ranking API, random page", "api-cold", [f"/api/v1/{rankings}?page={p}" for p in ranking_pages]),
        ("ranking HTML, random page", "html-cold", [f"/{rankings}?page={p}" for p in ranking_pages]),
    ]  # fmt: skip
    out = []
    for name, kind, paths in rows:
        file = ROOT / "var" / f"bench-pages-cold-{re.sub('[^a-z0-9]+', '-', name.lower())}.txt"
        file.write_text("\n".join(paths) + "\n")
        out.append(Family(name, kind, file))
    return out


def slice_args(family: Family, run: int, runs: int) -> list[str]:
    """wrk's script arguments for run ``run`` of ``runs`` (the warm-up is run 0): the
    lines of the family's file that run reads, none another run reads."""
    total = sum(1 for _ in family.paths.open())
    per_run = total // runs
    first = run * per_run + 1
    return ["paths", str(family.paths), str(first), str(first + per_run - 1)]


def cold_targets(name: str, kind: str, results, bare: dict[int, float], levels) -> list[str]:
    """MET or MISSED for a family: its fraction of the bare view and p95 at c=10, its
    p95 at c=1."""
    out = []
    if kind not in COLD_FRACTION:
        return out
    if 10 in levels:
        m = results[(name, 10)]
        want, got = COLD_FRACTION[kind], m.rate / bare[10]
        out.append(f"x{got:.2f} of bare at c=10 (>= {want}): {'MET' if got >= want else 'MISSED'}")
        ok = m.p95_ms <= COLD_P95_C10_MS
        out.append(
            f"p95 {m.p95_ms:.1f} ms at c=10 (<= {COLD_P95_C10_MS:g}): {'MET' if ok else 'MISSED'}"
        )
    if 1 in levels:
        p95 = results[(name, 1)].p95_ms
        ok = p95 <= COLD_P95_C1_MS
        out.append(f"p95 {p95:.1f} ms at c=1 (<= {COLD_P95_C1_MS:g}): {'MET' if ok else 'MISSED'}")
    return out
