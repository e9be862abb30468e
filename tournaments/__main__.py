"""Command line: ``python -m tournaments pair|standings FILE`` (or ``-`` for standard input).

Reads one JSON event, prints one JSON object and exits 0; on unusable input (or a
wrong command line) prints ``{"error": {"code", "message"}}`` and exits 2. Needs no
database and no Django settings: it imports the pure engine only. ``pair`` adds the
engine's CPU time to ``diagnostics`` as ``time_ms`` (the engine itself reads no clock).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

from tournaments.engine import PairingInputError, pair, standings
from tournaments.engine.errors import fail

USAGE = "usage: python -m tournaments pair|standings FILE|-"
COMMANDS: dict[str, Callable[[Any], dict[str, Any]]] = {"pair": pair, "standings": standings}


def _print(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _error(error: PairingInputError) -> int:
    _print({"error": error.as_dict()})
    return 2


def _read(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise fail("unreadable-file", reason=str(exc)[:120]) from exc
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise fail("not-json", reason=str(exc)[:80]) from exc


def run(command: str, path: str) -> int:
    """Run one command on one file; the exit status."""
    try:
        data = _read(path)
        started = time.process_time()
        out = COMMANDS[command](data)
    except PairingInputError as exc:
        return _error(exc)
    except RecursionError:
        return _error(fail("not-json", reason="nested too deeply"))
    if "diagnostics" in out:
        out["diagnostics"]["time_ms"] = round(1000 * (time.process_time() - started), 1)
    _print(out)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):
        sys.stdout.write(USAGE + "\n")
        return 0
    if len(args) != 2 or args[0] not in COMMANDS:
        return _error(fail("usage"))
    try:
        return run(args[0], args[1])
    except Exception as exc:  # a bug must still answer in JSON, never with a traceback
        _print({"error": fail("internal-error", reason=repr(exc)[:200]).as_dict()})
        return 1


if __name__ == "__main__":
    sys.exit(main())
