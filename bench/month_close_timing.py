"""Timing the month close step by step: wall time, our CPU time, PostgreSQL's.

``bench/ratings_month_close_db.py`` wraps the close's own steps (:class:`Timed`) and
prints the median of its runs per size against the target (:func:`summary`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import time
from pathlib import Path

#: the steps of the close, each a function of ratings.close (of ratings.services before
#: the close had a module of its own), by the first of its names it has: the window is read as columns (``month_columns``;
#: ``month_results`` in older versions), and the store step is ``_publish``: writing
#: the list (``store_list``: the COPY, the indexes, ANALYZE), its counts and the commit,
#: at which PostgreSQL checks the deferred foreign keys of every entry
STEPS = (
    (("month_columns", "month_results"), "load"),
    (("inputs_hash",), "hash"),
    (("compute_ranking",), "compute"),
    (("_publish", "store_list"), "store"),
)
#: steps that run in a thread alongside the others (the inputs hash, during the store
#: step): their times overlap the others', and are not subtracted for 'other'; their
#: CPU time is the whole process's over their span (``os.times`` is per process)
CONCURRENT = {"hash"}


class Clock:
    """Wall time, this process's CPU time (``os.times``, children included: a fanned-out
    close's worker is a child) and the CPU time of our PostgreSQL backend (read from
    ``/proc`` when the server runs on this machine, else None). On a machine other
    jobs share, wall time waits for them; CPU time counts only the work."""

    def __init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        self.stat = Path(f"/proc/{pid}/stat")
        if not os.access(self.stat, os.R_OK):
            self.stat = None

    def now(self) -> tuple[float, float, float | None]:
        t = os.times()
        return (
            time.perf_counter(),
            t.user + t.system + t.children_user + t.children_system,
            self.server(),
        )

    def server(self) -> float | None:
        if self.stat is None:
            return None
        fields = self.stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spent(start, stop) -> tuple[float, float, float | None]:
    """(wall, ours, PostgreSQL's) seconds between two ``Clock.now()``."""
    server = None if start[2] is None or stop[2] is None else stop[2] - start[2]
    return stop[0] - start[0], stop[1] - start[1], server


class Timed:
    """Wraps the steps the close calls (module attributes of ``ratings.close``, or of
    ``ratings.services`` in versions before it), to time the code of either."""

    def __init__(self, clock: Clock) -> None:
        name = "ratings.close" if importlib.util.find_spec("ratings.close") else "ratings.services"
        self.services = importlib.import_module(name)
        self.clock, self.steps, self.saved = clock, {}, {}

    def __enter__(self) -> Timed:
        for names, label in STEPS:
            attribute = next((n for n in names if hasattr(self.services, n)), None)
            if attribute is None:
                raise SystemExit(f"{self.services.__name__} has none of {names} ({label})")
            fn = self.saved[attribute] = getattr(self.services, attribute)
            setattr(self.services, attribute, self._wrap(label, fn))
        return self

    def __exit__(self, *exc) -> None:
        for attribute, fn in self.saved.items():
            setattr(self.services, attribute, fn)

    def _wrap(self, name, fn):
        def timed(*args, **kwargs):
            start = self.clock.now()
            try:
                return fn(*args, **kwargs)
            finally:
                self.steps[name] = spent(start, self.clock.now())

        return timed


def describe(times) -> str:
    """``wall W s, CPU C s + PostgreSQL P s``."""
    wall, ours, server = times
    pg = "" if server is None else f" + PostgreSQL {server:.2f}"
    return f"wall {wall:.2f}, CPU {ours:.2f}{pg}"


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def summary(rows: list, repeat: int) -> None:
    """Per size: median of the runs, per step wall / our CPU / PostgreSQL's CPU, and the
    closing process's peak memory (the largest of the runs); then the target on wall
    time and on CPU time (ours + PostgreSQL's backend), and at 10,000,000 results on
    memory too."""
    print(
        f"median of {repeat} run(s), seconds: wall / CPU of this process / CPU of its "
        "PostgreSQL backend ('other': ranking_publish's own work around the steps)"
    )
    labels = [label for _, label in STEPS] + ["other", "total"]
    print(
        f"{'results':>10} {'window':>9} {'entries':>8} "
        + " ".join(f"{x:>18}" for x in labels)
        + f" {'peak GiB':>9}"
    )
    verdicts = []
    for size, runs, window, entries in rows:
        cells = []
        for name in labels:
            parts = []
            for k in range(3):
                values = []
                for total, steps, _ in runs:
                    if name == "total":
                        v = total[k]
                    elif name == "other":
                        inside = [steps[x][k] for _, x in STEPS if x not in CONCURRENT]
                        v = None if total[k] is None or None in inside else total[k] - sum(inside)
                    else:
                        v = steps[name][k]
                    values.append(v)
                parts.append("-" if None in values else f"{median(values):.2f}")
            cells.append("/".join(parts))
        peak = max(p for _, _, p in runs) / 2**30
        print(
            f"{size:>10,} {window:>9,} {entries:>8,} "
            + " ".join(f"{c:>18}" for c in cells)
            + f" {peak:>9.2f}"
        )
        walls = [total[0] for total, _, _ in runs]
        cpus = [total[1] + (total[2] or 0.0) for total, _, _ in runs]
        verdicts.append((size, median(walls), min(walls), median(cpus), min(cpus), peak))
    size, wall, best_wall, cpu, best_cpu, peak = verdicts[-1]
    if size >= 10_000_000:
        target = 60.0 * size / 10_000_000
        goal = "10,000,000 results <= 60 s and <= 4 GiB peak memory"
        print(f"peak memory of the closing process: {peak:.2f} GiB: ", end="")
        print("MET" if peak <= 4.0 * size / 10_000_000 else "MISSED")
    else:
        target = 15.0 * size / 1_000_000
        goal = "1,000,000 results <= 15 s"
    scale = (
        "" if size in (1_000_000, 10_000_000) else f" (scaled to {size:,} results: {target:.1f} s)"
    )
    print(f"target: 12-month close of {goal}{scale}:")
    for what, value, best in (
        ("wall time", wall, best_wall),
        ("CPU time, ours + PostgreSQL's", cpu, best_cpu),
    ):
        verdict = "MET" if value <= target else "MISSED"
        print(f"  {what}: median {value:.1f} s, best {best:.1f} s: {verdict}")
