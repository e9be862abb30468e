"""What an archive must be before anything of it is stored: valid against its schema
(the first error's path, ``$.rounds[0].tables[1].seats``), of a version this service
reads, and consistent — rounds numbered from 1 and complete before the next, players
known and placed once per round, tables of the tournament's sizes, a match at every
table of a complete round and only in published ones, played by the table's players
in seat order.

Every refusal is an :class:`ArchiveRejected` naming the path of what is wrong.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError, best_match

from core.errors import CodedError
from tournaments.exchange.archive import VERSION, schema


class ArchiveRejected(CodedError):
    """An archive refused whole, nothing stored (400; 413 when too large)."""

    STATUS_BY_CODE = {"archive-too-large": 413}


def json_path(parts: deque[Any] | list[Any]) -> str:
    """``$.rounds[0].tables[1]`` of the keys and indexes ``parts``."""
    text = "$"
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _schema_error(error: ValidationError) -> ArchiveRejected:
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = set(error.schema.get("properties", {}))
        extra = sorted(str(key) for key in error.instance if key not in known)
        return ArchiveRejected("archive-unknown-field", path=json_path([*path, *extra[:1]]))
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [f for f in error.validator_value if f not in error.instance]
        return ArchiveRejected("archive-missing-field", path=json_path(path), field=missing[0])
    return ArchiveRejected("archive-invalid", path=json_path(path), rule=str(error.validator))


def schema_check(data: Any) -> None:
    """Refuse an archive its schema does not accept: the most telling error's path."""
    if not isinstance(data, dict):
        raise ArchiveRejected("archive-not-an-object")
    validator = Draft202012Validator(schema(), format_checker=FormatChecker())
    error = best_match(validator.iter_errors(data))
    if error is not None:
        raise _schema_error(error)
    if data["version"] != VERSION:
        raise ArchiveRejected("archive-version", version=data["version"], supported=VERSION)


def _handles(data: dict[str, Any]) -> dict[str, str]:
    """The archive's players by handle in lower case; a player listed twice refused."""
    known: dict[str, str] = {}
    for index, player in enumerate(data["players"]):
        handle = player["handle"]
        if handle.lower() in known:
            raise ArchiveRejected(
                "archive-player-twice", path=json_path(["players", index]), player=handle
            )
        known[handle.lower()] = handle
    return known


def _known(handle: str, known: dict[str, str], path: list[Any]) -> None:
    if handle.lower() not in known:
        raise ArchiveRejected("archive-unknown-player", path=json_path(path), player=handle)


def _registrations_check(data: dict[str, Any], known: dict[str, str]) -> None:
    seen: set[str] = set()
    for index, reg in enumerate(data["registrations"]):
        path = ["registrations", index, "player"]
        _known(reg["player"], known, path)
        if reg["player"].lower() in seen:
            raise ArchiveRejected(
                "archive-player-twice", path=json_path(path), player=reg["player"]
            )
        seen.add(reg["player"].lower())


def _order_check(data: dict[str, Any]) -> None:
    """Rounds 1..n in order, no more than planned, each complete before the next."""
    rounds, planned = data["rounds"], data["tournament"]["rounds_planned"]
    if len(rounds) > planned:
        raise ArchiveRejected("archive-rounds-planned", count=len(rounds), planned=planned)
    for index, rnd in enumerate(rounds):
        if rnd["number"] != index + 1:
            path = json_path(["rounds", index, "number"])
            raise ArchiveRejected(
                "archive-round-numbers", path=path, number=rnd["number"], expected=index + 1
            )
        if index and rounds[index - 1]["status"] != "complete":
            raise ArchiveRejected(
                "archive-round-order", round=rnd["number"], status=rnd["status"], before=index
            )


def _round_check(data: dict[str, Any], index: int, known: dict[str, str]) -> None:
    rnd, tournament = data["rounds"][index], data["tournament"]
    placed: set[str] = set()
    numbers: set[int] = set()

    def place(handle: str, path: list[Any]) -> None:
        _known(handle, known, path)
        if handle.lower() in placed:
            raise ArchiveRejected(
                "archive-seated-twice", path=json_path(path), player=handle, round=rnd["number"]
            )
        placed.add(handle.lower())

    for t, table in enumerate(rnd["tables"]):
        path = ["rounds", index, "tables", t]
        if table["number"] in numbers:
            raise ArchiveRejected(
                "archive-table-numbers",
                path=json_path([*path, "number"]),
                table=table["number"],
                round=rnd["number"],
            )
        numbers.add(table["number"])
        for s, handle in enumerate(table["seats"]):
            place(handle, [*path, "seats", s])
        _table_check(table, rnd, tournament, path)
    for b, bye in enumerate(rnd["byes"]):
        place(bye["player"], ["rounds", index, "byes", b, "player"])


def _table_check(
    table: dict[str, Any], rnd: dict[str, Any], tournament: dict[str, Any], path: list[Any]
) -> None:
    seats = table["seats"]
    if len(seats) not in tournament["table_sizes"]:
        sizes = ", ".join(map(str, tournament["table_sizes"]))
        raise ArchiveRejected(
            "archive-table-size", path=json_path([*path, "seats"]), size=len(seats), sizes=sizes
        )
    match = table.get("match")
    if match is None:
        if rnd["status"] == "complete":
            raise ArchiveRejected(
                "archive-result-missing",
                path=json_path(path),
                round=rnd["number"],
                table=table["number"],
            )
        return
    if rnd["status"] == "paired":
        raise ArchiveRejected("archive-result-early", path=json_path(path), round=rnd["number"])
    players = match["record"].get("players")
    if not isinstance(players, list) or [str(p).lower() for p in players] != [
        h.lower() for h in seats
    ]:
        raise ArchiveRejected(
            "archive-match-players",
            path=json_path([*path, "match", "record", "players"]),
            expected=", ".join(seats),
        )


def consistency_check(data: dict[str, Any]) -> None:
    """Refuse an archive (valid against its schema) whose parts do not agree."""
    known = _handles(data)
    _registrations_check(data, known)
    _order_check(data)
    for index in range(len(data["rounds"])):
        _round_check(data, index, known)
