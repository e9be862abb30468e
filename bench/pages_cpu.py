"""What a request costs through gunicorn, process by process: CPU milliseconds a request.

Starts the load benchmark's gunicorn (``bench/pages_site.py``: the deploy configuration,
``bench.site.settings``, DEBUG off, ``GUNICORN_THREADS`` from the environment), drives
it with wrk at 10 connections over the cold families' path files (``var/bench-pages-
cold-*.txt``, written by ``bench/pages.py``) or the bare view, and reads from ``/proc``
the CPU (user + system) of every process the requests use: the gunicorn workers and
master, the PostgreSQL backends whose client ports are the workers' sockets, the
server-side cache's ``redis-server`` when it runs on this machine, and wrk itself
(``wait4``). Each figure is divided by the requests wrk counted. Read-only: the
database is only queried.

    BENCH_CACHE_URL=redis://127.0.0.1:PORT/12 BENCH_BROKER_URL=redis://127.0.0.1:PORT/11 \\
    GUNICORN_THREADS=8 .venv/bin/python bench/pages_cpu.py --database quotient_cold \\
        --families bare,match-api,player-history-api
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from pages import free_port  # noqa: E402
from pages_site import CACHE_URL, start_server  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as kids:
            found += [int(p) for p in kids.read().split()]
    return found


def backends(server: str, workers: list[int]) -> list[int]:
    """The PostgreSQL backends serving the workers: their client ports matched."""
    import psycopg

    out = subprocess.run(["ss", "-tnpH"], capture_output=True, text=True, check=True).stdout
    ports = {
        int(line.split()[3].rsplit(":", 1)[1])
        for line in out.splitlines()
        if any(f"pid={pid}," in line for pid in workers)
    }
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        rows = conn.execute("SELECT pid, client_port FROM pg_stat_activity").fetchall()
    return [pid for pid, port in rows if port in ports]


def redis_pid() -> int | None:
    """The cache's redis-server, when it listens on this machine."""
    port = urlsplit(CACHE_URL).port or 6379
    out = subprocess.run(
        ["ss", "-tlnpH", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout
    return int(out.split("pid=")[1].split(",")[0]) if "pid=" in out else None


def run_wrk(base: str, family: str, seconds: int) -> tuple[dict, float]:
    """wrk's RESULT line and its own CPU seconds."""
    command = ["wrk", "-t2", "-c10", f"-d{seconds}s", "--timeout", "10s"]
    command += ["-s", str(ROOT / "bench" / "pages.lua")]
    if family == "bare":
        command += [base + "/bench/bare/"]
    else:
        paths = ROOT / "var" / f"bench-pages-cold-{family}.txt"
        if not paths.exists():  # "match-api" for the file "match-api-random"
            paths = ROOT / "var" / f"bench-pages-cold-{family}-random.txt"
        command += [base + "/", "--", "paths", str(paths), "1", "1000000000", "2"]
    wrk = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert wrk.stdout is not None
    out = wrk.stdout.read()
    _, _, usage = os.wait4(wrk.pid, 0)
    line = next(x for x in out.splitlines() if x.startswith("RESULT "))
    return json.loads(line[len("RESULT ") :]), usage.ru_utime + usage.ru_stime


def measure(args: argparse.Namespace, base: str, master: int, family: str) -> dict:
    workers = children(master)
    redis = redis_pid()
    run_wrk(base, family, 2)  # every thread's connection opened
    serving = backends(args.server, workers)
    groups = {"gunicorn": workers + [master], "postgresql": serving}
    groups["redis"] = [redis] if redis else []
    before = {pid: cpu_seconds(pid) for pids in groups.values() for pid in pids}
    result, wrk_cpu = run_wrk(base, family, args.seconds)
    requests = result["requests"]
    row = {"family": family, "threads": os.environ.get("GUNICORN_THREADS", "8")}
    row["req/s"] = round(requests / (result["duration_us"] / 1e6))
    row["p95 ms"] = result["p95_us"] / 1000
    for name, pids in groups.items():
        spent = sum(cpu_seconds(pid) - before[pid] for pid in pids)
        row[f"{name} ms"] = round(spent * 1000 / requests, 3)
    row["wrk ms"] = round(wrk_cpu * 1000 / requests, 3)
    row["all ms"] = round(sum(v for k, v in row.items() if k.endswith(" ms") and "p95" not in k), 3)
    row["load"] = os.getloadavg()[0]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="quotient_cold")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=0, help="the server's port (a free one)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument(
        "--families", default="bare,match-api,player-history-api", help="bare or a cold file's name"
    )
    args = parser.parse_args()
    args.port = args.port or free_port()
    server = start_server(args)
    try:
        for family in args.families.split(","):
            print(json.dumps(measure(args, f"http://127.0.0.1:{args.port}", server.pid, family)))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
