"""Reading a bulk import file of up to 10 MB, whatever its shape (``scoring.entry.files``).

An upload is read while the request waits: its bytes, then its rows, each checked
against the limits as it comes (10 MB, 2,000 rows, 20,000 lines, a CSV cell of
131,072 characters). Every shape below is just under 10 MB; each must be answered
(rows read, or the file refused with its code) in at most 2 s of wall clock, the
whole upload's budget (the rows' insert adds about 0.1 s for 2,000 rows). Figures are
the best of several runs (the machine is shared), CPU time beside them.

    .venv/bin/python bench/imports.py            # best of 3
    .venv/bin/python bench/imports.py --quick    # one run each
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.engine.divisor import random_record
from scoring.entry.files import MAX_FILE_BYTES, FileRefused, read_file

TARGET_S = 2.0
SIZE = MAX_FILE_BYTES - 200 * 1024  # "9.8 MB"


def _fill(unit: bytes, head: bytes = b"", tail: bytes = b"") -> bytes:
    count = (SIZE - len(head) - len(tail)) // len(unit)
    return head + unit * count + tail


def _records_lines() -> bytes:
    """2,000 real Divisor records, one a line, padded to ~10 MB with a long ``comment``-free
    shape: each record repeated as needed (duplicates are the worker's business)."""
    lines = [json.dumps(random_record(seed, players=4, set=12)).encode() for seed in range(40)]
    out, n = [], 0
    while n < SIZE and len(out) < 2000:
        line = lines[len(out) % len(lines)]
        out.append(line)
        n += len(line) + 1
    return b"\n".join(out)


def _records_array() -> bytes:
    return b"[" + _records_lines().replace(b"\n", b",") + b"]"


def _csv_cells(cell_chars: int) -> bytes:
    group = "12 7 3 / " * (cell_chars // 9)
    row = f"divisor,ana ben cem,,,7,{group},{group}\n".encode()
    return _fill(row, head=b"game,players,played_on,set,divisor,points,pips_left\n")


SHAPES: dict[str, Callable[[], bytes]] = {
    "JSON lines of empty objects (the red team's file)": lambda: _fill(b"{}\n"),
    "JSON lines, 2,000 real records": _records_lines,
    "JSON array, 2,000 real records": _records_array,
    "JSON lines, 2,000 records, an emoji pair each": lambda: _records_lines().replace(
        b'"game"', b'"game\\ud83d\\ude00"'
    ),
    "JSON lines, 2,000 records, a NUL each": lambda: _records_lines().replace(
        b'"divisor"', b'"divisor\\u0000"', 2000
    ),
    "JSON array of 5 million zeros": lambda: _fill(b"0,", head=b"[", tail=b"0]"),
    "one JSON object of 10 MB": lambda: _fill(b'"k":1,', head=b'{"a":{', tail=b'"z":1}}'),
    "JSON nested 10 million deep": lambda: _fill(b"["),
    "blank lines only": lambda: _fill(b"\n"),
    "blank lines, then one row": lambda: _fill(b"\n", tail=b'{"game":"9tka"}\n'),
    "CSV of 1.2 million short rows": lambda: _fill(
        b"9tka,ana ben cem,,4 3 1\n", b"game,players,played_on,sections\n"
    ),
    "CSV of empty cells": lambda: _fill(b",,,,,,,,\n", head=b"game,players\n"),
    "CSV, one quoted cell of 10 MB": lambda: _fill(b"x", head=b'game,players\n9tka,"', tail=b'"\n'),
    "CSV, 75 rows of 130,000-character cells": lambda: _csv_cells(65000),
    "CSV, 2,000 rows of 3,900-character cells": lambda: _csv_cells(1950),
    "random bytes": lambda: random.Random(1).randbytes(SIZE),
}


def _answer(content: bytes) -> str:
    try:
        rows = read_file(content)
    except FileRefused as refused:
        return f"refused {refused.code}"
    hashlib.sha256(content).hexdigest()  # the upload's fingerprint, as import_create takes it
    bad = sum(row.error is not None for row in rows)
    return f"{len(rows)} rows ({bad} refused)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each shape")
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    print(f"{'shape':<48} {'MB':>5} {'wall s':>7} {'cpu s':>6}  answer")
    worst, failed = 0.0, False
    for name, build in SHAPES.items():
        content = build()
        assert len(content) <= MAX_FILE_BYTES, name
        best_wall = best_cpu = float("inf")
        answer = ""
        for _run in range(runs):
            wall, cpu = time.perf_counter(), time.process_time()
            answer = _answer(content)
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
        worst = max(worst, best_wall)
        mark = "" if best_wall <= TARGET_S else "  <-- over 2 s"
        failed |= bool(mark)
        mb = len(content) / 1e6
        print(f"{name:<48} {mb:5.1f} {best_wall:7.3f} {best_cpu:6.3f}  {answer}{mark}")
    load = os.getloadavg()[0]
    print(f"worst: {worst:.3f} s (target {TARGET_S} s); load average {load:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
