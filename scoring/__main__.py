"""Command line: ``python -m scoring replay FILE`` (or ``-`` for standard input).

Prints one JSON object (the replay contract of GAMES.md) and exits 0 for a valid
record, 1 for an invalid one, 2 for unusable input. Needs no database and no
Django settings: the error's ``message`` is the catalogue's English template
(``core.catalogue``), rendered here since the engines carry no words.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.catalogue import with_message
from scoring.engine import UnusableInput, replay, unusable
from scoring.engine.common import RecordError


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _print(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(with_message(obj), ensure_ascii=False) + "\n")


def replay_command(path: str) -> int:
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        _print(unusable(RecordError("unreadable-file", None, reason=str(exc)[:120])))
        return 2
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        _print(unusable(RecordError("not-json", None, reason=str(exc)[:80])))
        return 2
    try:
        out = replay(record)
    except UnusableInput as exc:
        _print(unusable(exc.error))
        return 2
    _print(out)
    return 0 if out["valid"] else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay a match record")
    replay_parser.add_argument("file", help="a JSON match record, or - for standard input")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.file)
    return 2  # pragma: no cover - argparse rejects other commands


if __name__ == "__main__":
    sys.exit(main())
