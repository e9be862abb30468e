"""Benchmark: the site under load, endpoint by endpoint, against a bare view.

Builds or reuses the benchmark federation (``ratings_month_close_db.py --keep``: 100,000
players, 1,000,000 matches, the list of the last closed month published), starts
gunicorn with the deploy configuration (``deploy/gunicorn.conf.py``, 2 workers, DEBUG
off, throttling off, plain HTTP) under ``bench.site.settings``, which adds one
trivial view, ``/bench/bare/``, and drives every list, detail, ranking, player and
submission endpoint with ``wrk`` (Debian's; installed if missing) at 1, 10 and 50
connections for a bounded time each. It prints requests per second, p50 and p95
latency, and each endpoint's fraction of the bare view's requests per second at the
same concurrency (the bare view is measured before and after the endpoints: their
mean is the reference), then MET or MISSED per target:

* every GET ranking and player API endpoint >= 0.5 of the bare view at c=10, their HTML
  pages >= 0.25, the match lists >= 0.1;
* p95 <= 25 ms at c=1 for each of them (a deep ranking page included);
* POST /api/v1/matches/ >= 100 requests/s at c=10, and >= 0.3 of the API root's
  (``GET /api/v1/``, measured in the same run just before the POSTs) requests/s at
  c=10 (issue 23);
* an Astronomy POST (full 8×8 games, whose analysis a task runs after the commit) p95
  <= 1.5x the divisor POST's p95 at c=10 (the server has a broker, as deployed; no
  worker runs the queued analyses during the run, the queue is emptied after).

Then the cold families (``bench/pages_cold.py``): each request names a different object
drawn, seeded, from the whole federation (a player's page, history and matches, a
match's API answer and page, a page of the ranking), so no cache of the object answers
it; targets at c=10: API families >= 0.5 of the bare view, HTML families >= 0.25, p95
<= 50 ms; p95 <= 25 ms at c=1. ``--only random`` runs them alone (with the bare view).
Each cold cell is bracketed by cells of the bare view at its level, and its fraction
judged on their mean: on a shared machine the bare view's speed drifts within a run, and
a family is then compared with the bare view of the same minute (the fraction of the
run's mean bare view is printed too). The API root is measured once before them and each
family's fraction of it printed for reference (issue 23's own table's baseline; no
target on it).

The match detail pages and the match lists read uncached (every request its own URL,
the cost right after a submission) are reported without a target: the issue sets none.

Submissions are distinct valid matches of a club of the benchmark's own, by its
organiser's token, played today; they are deleted afterwards, so the federation stays
what the month-close benchmark expects. wrk and the server share this machine's cores:
the bare view pays the same, which is why the fractions are the comparable figures.

    .venv/bin/python bench/pages.py            # full federation, 10 s per endpoint and level
    .venv/bin/python bench/pages.py --quick    # small federation, 3 s: a smoke run
    .venv/bin/python bench/pages.py --duration 20 --concurrency 10 --only ranking
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from pages_cold import Family, cold_families, cold_targets, slice_args
from pages_site import (
    MONTH,
    Fixtures,
    astronomy_submissions,
    build_federation,
    fixtures,
    published,
    purge_queue,
    remove_submissions,
    setup_django,
    start_server,
    submissions,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="small federation (5,000 players, 50,000 results), 3 s"
    )
    parser.add_argument("--duration", type=int, help="seconds per endpoint and level (10)")
    parser.add_argument("--concurrency", default="1,10,50", help="connections, comma-separated")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    parser.add_argument("--port", type=int, default=0, help="the server's port (a free one)")
    parser.add_argument("--database", help="quotient_bench (quotient_bench_quick with --quick)")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--only", help="run only the endpoints whose name contains this")
    args = parser.parse_args()
    args.duration = args.duration or (3 if args.quick else 10)
    args.levels = [int(c) for c in args.concurrency.split(",") if c.strip()]
    args.database = args.database or ("quotient_bench_quick" if args.quick else "quotient_bench")
    args.players, args.results = (5_000, 50_000) if args.quick else (100_000, 1_000_000)
    args.port = args.port or free_port()
    return args


def free_port() -> int:
    """A port the system has just handed out (bound to port 0), for the benchmark's server:
    never a fixed one, so that two benchmarks or a test run on the machine cannot collide."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# -- the load generator ---------------------------------------------------------------------


def ensure_wrk() -> str:
    """wrk from Debian, installed if missing (as deploy/scripts/system-packages.sh does)."""
    found = shutil.which("wrk")
    if found:
        return found
    print("installing wrk (Debian)")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env)
    return shutil.which("wrk") or "wrk"


# -- the endpoints and their targets ---------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    name: str
    path: str
    # api (rankings, players) | html (their pages) | list | detail | post | bare, and
    # uncached (a list, every request a cache miss: reported, no target)
    kind: str


def endpoints(f: Fixtures) -> list[Endpoint]:
    ranking = f"rankings/divisor/{f.month}/"
    return [
        Endpoint("match list API", "/api/v1/matches/", "list"),
        Endpoint(
            "match list API, game+month", f"/api/v1/matches/?game=divisor&month={f.month}", "list"
        ),
        Endpoint("match list HTML", "/matches/", "list"),
        # each request its own URL (a query parameter wrk numbers): every one a miss of
        # the server-side cache, the cost of a list right after a submission; no target
        Endpoint("match list API, uncached", "/api/v1/matches/", "uncached"),
        Endpoint("match list HTML, uncached", "/matches/", "uncached"),
        Endpoint("match API", f"/api/v1/matches/{f.match}/", "detail"),
        Endpoint("match HTML", f"/matches/{f.match}/", "detail"),
        Endpoint("ranking API p1", f"/api/v1/{ranking}", "api"),
        Endpoint(f"ranking API p{f.deep_page}", f"/api/v1/{ranking}?page={f.deep_page}", "api"),
        Endpoint("ranking HTML p1", f"/{ranking}", "html"),
        Endpoint(f"ranking HTML p{f.deep_page}", f"/{ranking}?page={f.deep_page}", "html"),
        Endpoint("player history API", f"/api/v1/players/{f.handle}/history/", "api"),
        Endpoint("player HTML", f"/players/{f.handle}/", "html"),
        Endpoint("submit (POST) API", "/api/v1/matches/", "post"),
        Endpoint("submit Astronomy (POST) API", "/api/v1/matches/", "post-astronomy"),
    ]


#: kind -> (minimum fraction of the bare view at c=10, what the target calls it)
FRACTION = {"api": 0.5, "html": 0.25, "list": 0.1}
P95_MS = 25.0
POST_RATE = 100.0
POST_OF_API_ROOT = 0.3  # stored POSTs/s against the API root's GETs/s, at c=10
API_ROOT = "API root"
ASTRONOMY_P95 = 1.5  # an Astronomy POST's p95 against the divisor POST's, at c=10


@dataclass
class Measure:
    requests: int
    seconds: float
    p50_ms: float
    p95_ms: float
    errors: int  # non-2xx/3xx answers, timeouts, connection errors

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def run_wrk(wrk: str, url: str, connections: int, seconds: float, extra: list[str]) -> Measure:
    threads = min(connections, 2)
    command = [wrk, f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s"]
    command += ["--timeout", "10s"]  # wrk takes whole seconds
    command += ["-s", str(ROOT / "bench" / "pages.lua")]
    headers = [h for h in extra if h.startswith("H:")]
    for header in headers:
        command += ["-H", header[2:]]
    args = [a for a in extra if not a.startswith("H:")]
    command += [url] + (["--", *args, str(threads)] if args else [])
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("RESULT "))
    r = json.loads(line[len("RESULT ") :])
    errors = sum(r[k] for k in ("connect", "read", "write", "status", "timeout"))
    return Measure(
        r["requests"], r["duration_us"] / 1e6, r["p50_us"] / 1e3, r["p95_us"] / 1e3, errors
    )


def drain(base: str, workers: int) -> None:
    """Wait until the workers are idle: requests wrk left queued at the end of a run
    (a slow endpoint at 50 connections) would be served during the next run."""
    from concurrent.futures import ThreadPoolExecutor

    def bare(_: int) -> None:
        with urllib.request.urlopen(base + "/bench/bare/", timeout=120) as response:
            response.read()

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(bare, range(workers)))


def check(base: str, f: Fixtures, points: list[Endpoint]) -> None:
    """Every GET answers 200 before it is loaded (a 404 or 500 would measure nothing)."""
    for point in points:
        if point.kind.startswith("post"):
            continue
        with urllib.request.urlopen(base + point.path, timeout=30) as response:
            size = len(response.read())
        print(f"  {point.name:<28} {point.path}  200, {size:,} bytes")


def check_cold(base: str, families: list[Family]) -> None:
    """The first path of every random-object family answers 200."""
    for family in families:
        path = family.paths.open().readline().strip()
        with urllib.request.urlopen(base + path, timeout=30) as response:
            size = len(response.read())
        print(f"  {family.name:<28} {path}  200, {size:,} bytes (one of its objects)")


def measure_cold(args, wrk: str, base: str, families: list[Family], results: dict) -> None:
    """The random-object families (``pages_cold``): a warm-up of connections and code
    on a slice of objects of its own, then every level on its own slice. Each cell is
    bracketed by two cells of the bare view at its level (the one after it is the next
    family's one before): its fraction is also taken of their mean (:data:`BESIDE`). On
    a shared machine the bare view's speed drifts within a run (by half between runs
    here): a family is then compared with the bare view of the same minute."""
    runs = 1 + len(args.levels)
    before: dict[int, float] = {}
    for family in families:
        run_wrk(wrk, base + "/", 10, 1 if args.quick else 2, slice_args(family, 0, runs))
        for i, c in enumerate(args.levels):
            if c not in before:
                before[c] = bare_cell(args, wrk, base, c)
            drain(base, args.workers)
            m = run_wrk(wrk, base + "/", c, args.duration, slice_args(family, i + 1, runs))
            results[(family.name, c)] = m
            after = bare_cell(args, wrk, base, c)
            results[(BESIDE, family.name, c)] = (before[c] + after) / 2
            before[c] = after
            print(
                f"  {family.name:<28} c={c:<3} {m.rate:8.1f} req/s  p50 {m.p50_ms:7.1f} ms  "
                f"p95 {m.p95_ms:7.1f} ms  errors {m.errors}  (bare beside "
                f"{results[(BESIDE, family.name, c)]:.0f} req/s)"
            )


#: the key of a cold family's bracketing bare view in the results: (BESIDE, name, c)
BESIDE = "bare view beside"


def bare_cell(args, wrk: str, base: str, c: int) -> float:
    """The bare view's requests per second at ``c`` connections, one cell."""
    drain(base, args.workers)
    return run_wrk(wrk, base + "/bench/bare/", c, args.duration, []).rate


def measure_all(
    args, wrk: str, base: str, f: Fixtures, points: list[Endpoint], files: dict, families=()
):
    """Every endpoint at every level (the bare view first and last); {(name, c): Measure}.
    ``files``: the submissions' bodies by kind of POST."""
    results: dict[tuple[str, int], Measure] = {}
    warm = 1 if args.quick else 2
    for point in [Endpoint("bare view", "/bench/bare/", "bare"), *points]:
        if not point.kind.startswith("post"):
            run_wrk(wrk, base + point.path, 10, warm, [])  # warm caches and connections
        for i, c in enumerate(args.levels):
            extra = []
            if point.kind == "uncached":
                extra = ["bust"]
            if point.kind.startswith("post"):
                bodies = files[point.kind]
                per_level = sum(1 for _ in bodies.open()) // len(args.levels)
                first = i * per_level + 1
                extra = [f"H:Authorization: Token {f.token}", "H:Content-Type: application/json"]
                extra += [str(bodies), str(first), str(first + per_level - 1)]
            drain(base, args.workers)
            m = run_wrk(wrk, base + point.path, c, args.duration, extra)
            results[(point.name, c)] = m
            print(
                f"  {point.name:<28} c={c:<3} {m.rate:8.1f} req/s  p50 {m.p50_ms:7.1f} ms  "
                f"p95 {m.p95_ms:7.1f} ms  errors {m.errors}"
            )
    measure_cold(args, wrk, base, families, results)
    for c in args.levels:  # the bare view again: the reference is the mean of both
        drain(base, args.workers)
        m = run_wrk(wrk, base + "/bench/bare/", c, args.duration, [])
        results[("bare view (after)", c)] = m
        print(f"  {'bare view (after)':<28} c={c:<3} {m.rate:8.1f} req/s  p95 {m.p95_ms:7.1f} ms")
    return results


def report(args, points: list[Endpoint], results, families=()) -> None:
    bare = {
        c: (results[("bare view", c)].rate + results[("bare view (after)", c)].rate) / 2
        for c in args.levels
    }
    print()
    print(
        f"req/s, p50 / p95 ms, fraction of the bare view's req/s at the same concurrency "
        f"(bare: {', '.join(f'c={c} {bare[c]:.0f} req/s' for c in args.levels)}); "
        f"{args.duration:g} s per cell, gunicorn {args.workers} workers"
    )
    head = f"{'endpoint':<28}" + "".join(f"{'c=' + str(c):>26}" for c in args.levels)
    print(head + "  errors")
    for point in points:
        cells, errors = "", 0
        for c in args.levels:
            m = results[(point.name, c)]
            errors += m.errors
            cells += f"{m.rate:8.0f} {m.p50_ms:5.1f}/{m.p95_ms:5.1f} x{m.rate / bare[c]:4.2f}"
        print(f"{point.name:<28}{cells}  {errors}")
    for family in families:  # a random object each request (pages_cold)
        cells, errors = "", 0
        for c in args.levels:
            m = results[(family.name, c)]
            errors += m.errors
            cells += f"{m.rate:8.0f} {m.p50_ms:5.1f}/{m.p95_ms:5.1f} x{m.rate / bare[c]:4.2f}"
        print(f"{family.name:<28}{cells}  {errors}")
    if families:
        print()
        print("cold families, fraction of the bare view measured beside them (before and after")
        print("each cell, at its level; the targets are judged on it):")
        for family in families:
            cells = "".join(
                f"  c={c} x{results[(family.name, c)].rate / results[(BESIDE, family.name, c)]:4.2f}"
                f" (bare {results[(BESIDE, family.name, c)]:.0f})"
                for c in args.levels
            )
            print(f"{family.name:<28}{cells}")
        root = results.get((API_ROOT, 10))
        if root is not None and root.rate and 10 in args.levels:
            print()
            print(f"for reference, at c=10 against the API root ({root.rate:.0f} req/s, measured")
            print("once before them: the baseline of issue 23's own table; no target on it):")
            for family in families:
                print(f"{family.name:<28}  x{results[(family.name, 10)].rate / root.rate:4.2f}")
    print()
    print("targets:")
    for point in points:
        for verdict in targets(point, results, bare, args.levels):
            print(f"  {point.name:<28} {verdict}")
    for family in families:
        beside = {c: results[(BESIDE, family.name, c)] for c in args.levels}
        for verdict in cold_targets(family.name, family.kind, results, beside, args.levels):
            print(f"  {family.name:<28} {verdict}")


def targets(point: Endpoint, results, bare: dict[int, float], levels: list[int]) -> list[str]:
    out = []
    if point.kind in FRACTION and 10 in levels:
        m = results[(point.name, 10)]
        want = FRACTION[point.kind]
        got = m.rate / bare[10]
        out.append(f"x{got:.2f} of bare at c=10 (>= {want}): {'MET' if got >= want else 'MISSED'}")
    if point.kind in FRACTION and 1 in levels:
        p95 = results[(point.name, 1)].p95_ms
        out.append(
            f"p95 {p95:.1f} ms at c=1 (<= {P95_MS:g}): {'MET' if p95 <= P95_MS else 'MISSED'}"
        )
    if point.kind == "post" and 10 in levels:
        m = results[(point.name, 10)]
        ok = m.rate >= POST_RATE and m.errors == 0
        out.append(
            f"{m.rate:.0f} req/s at c=10, {m.errors} errors (>= {POST_RATE:g}, none): "
            f"{'MET' if ok else 'MISSED'}"
        )
    out += post_of_api_root(point, results, levels)
    if point.kind == "post-astronomy" and 10 in levels:
        p95 = results[(point.name, 10)].p95_ms
        divisor = results.get(("submit (POST) API", 10))
        if divisor is not None and divisor.p95_ms:
            ratio = p95 / divisor.p95_ms
            out.append(
                f"p95 {p95:.1f} ms at c=10, x{ratio:.2f} of the divisor POST's "
                f"{divisor.p95_ms:.1f} ms (<= {ASTRONOMY_P95:g}x): "
                f"{'MET' if ratio <= ASTRONOMY_P95 else 'MISSED'}"
            )
    return out


def with_api_root(points: list[Endpoint], families: list[Family]) -> list[Endpoint]:
    """``points`` with the API root's GET just before the first POST (the reference of
    the submissions' target, measured in the same run), if some POST is measured; else
    last, if some cold family is (issue 23 measured them against the API root: its
    fraction is printed beside the bare view's, for reference, no target on it)."""
    if any(p.name == API_ROOT for p in points):
        return points
    root = Endpoint(API_ROOT, "/api/v1/", "root")
    if any(p.kind == "post" for p in points):
        first = next(i for i, p in enumerate(points) if p.kind.startswith("post"))
        return [*points[:first], root, *points[first:]]
    return [*points, root] if families else points


def post_of_api_root(point: Endpoint, results, levels: list[int]) -> list[str]:
    """The submissions' target of issue 23: stored POSTs/s at c=10 against the API
    root's GETs/s at c=10 in the same run."""
    root = results.get((API_ROOT, 10))
    if point.kind != "post" or 10 not in levels or root is None or not root.rate:
        return []
    m = results[(point.name, 10)]
    got = m.rate / root.rate
    ok = got >= POST_OF_API_ROOT and m.errors == 0
    return [
        f"x{got:.2f} of the API root's {root.rate:.0f} GETs/s at c=10 "
        f"(>= {POST_OF_API_ROOT:g}, no errors): {'MET' if ok else 'MISSED'}"
    ]


def main() -> None:
    args = parse_args()
    wrk = ensure_wrk()
    print(
        f"load benchmark: database {args.database}, list {MONTH:%Y-%m}, levels {args.levels}, "
        f"{args.duration:g} s each, gunicorn {args.workers} workers, {wrk}"
    )
    if not published(args):
        build_federation(args)
    setup_django(args)
    f = fixtures()
    remove_submissions()  # what an interrupted run may have left
    points = [p for p in endpoints(f) if not args.only or args.only in p.name]
    families = [x for x in cold_families(f.month) if not args.only or args.only in x.name]
    points = with_api_root(points, families)
    bodies = ROOT / "var" / "bench-pages-submissions.jsonl"
    submissions(bodies, len(args.levels) * int(600 * args.duration), args.players)
    files = {"post": bodies, "post-astronomy": ROOT / "var" / "bench-pages-astronomy.jsonl"}
    if any(p.kind == "post-astronomy" for p in points):
        count = len(args.levels) * int(400 * args.duration)
        astronomy_submissions(files["post-astronomy"], count, args.players)
    server = start_server(args)
    base = f"http://127.0.0.1:{args.port}"
    try:
        print(f"gunicorn up at {base} (log: var/bench-pages-gunicorn.log); the endpoints:")
        check(base, f, points)
        check_cold(base, families)
        results = measure_all(args, wrk, base, f, points, files, families)
    finally:
        server.terminate()
        server.wait(30)
        purge_queue()
        print(f"removed {remove_submissions():,} rows of the benchmark's submissions")
    report(args, points, results, families)
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
