"""The rows of a bulk import file: each row is one match.

Three kinds of file are read, told apart by their first character:

* a **JSON array** (``[``) of records;
* **JSON lines** (``{``): one record per non-blank line;
* a **CSV of summaries** (anything else): a header row, then one match per row.

A JSON row is a record, which may carry ``played_on`` and ``game_number`` beside its
own keys, or ``{"record": {...}, "played_on": ..., "game_number": ...}``. A CSV row
names its ``game`` and its ``players`` (handles in seat order, separated by spaces)
and gives the summary in the game's columns (:data:`COLUMNS`). A list *per player*
is written in seat order, separated by spaces (``12 7 3``); where each player or
each deal has several values, the groups are separated by ``/`` (``6-6 3-3 / 1-2
3-5``). Flags are ``yes``/``no`` (``1``/``0``, ``true``/``false`` too; blank is no).

A row that cannot be read keeps its place with its error; the import reports it
like a record the engine refuses: a row holding text the database cannot store (a
NUL, a lone surrogate: ``import-unsafe-text``), a CSV cell longer than the CSV
reader's 131,072 characters (``import-cell-too-long``), a ``game_number`` that is not
1 to 999 in ASCII digits. A file that cannot be read at all (too large, too many
rows or lines, a CSV without its ``game`` or ``players`` column, an unknown column, a
JSON array that is not JSON) is refused whole (:class:`FileRefused`).

The limits are checked while reading, never after: the bytes as they are read (a
file over :data:`MAX_FILE_BYTES` is not read further), the rows and lines as they
come (the reader stops at the first row or line over :data:`MAX_ROWS` or
:data:`MAX_LINES`, before building it), so any file of up to 10 MB is answered
within a second or two (``bench/imports.py``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from typing import IO, Any

from core.errors import CodedError
from core.text import UNSAFE, find_unsafe, scrubbed
from scoring.engine.common import RecordError
from scoring.entry.summary_columns import BUILDERS

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_ROWS = 2000
#: lines read at most (blank ones included): a file of rows has one or two per row
MAX_LINES = 10 * MAX_ROWS
#: the longest CSV cell read (a summary's longest list is a few hundred characters);
#: the CSV reader's own limit, 131,072 characters, is refused the same way
MAX_CELL = 4_000
#: how a JSON text spells a NUL or a surrogate (a pair is two): only a file holding one
#: of them, or a raw NUL, has its rows searched for them one by one
UNSAFE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")
#: how much of the upload is read at a time
CHUNK = 256 * 1024
#: what every CSV row may give, then each game's columns
COMMON = ("game", "players", "played_on", "game_number")
COLUMNS: dict[str, tuple[str, ...]] = {
    "divisor": ("set", "divisor", "points", "pips_left", "blocked"),
    "astronomy": ("size", "winner", "moves", "resign"),
    "9tka": ("sections",),
    "trimorp": ("five", "series", "box_opener"),
    "dominyam": ("turn_points", "tiles", "target_bonus"),
}
ALL_COLUMNS = frozenset(COMMON).union(*COLUMNS.values())


class FileRefused(CodedError):
    """The file as a whole cannot be imported (nothing is queued)."""

    WITH_MOVE = True
    STATUS_BY_CODE = {"import-too-large": 413}

    def __init__(self, code: str, *, move: int | None = None, **params: Any) -> None:
        # a column's name or a reason quoted from the file: never a NUL in the answer
        # (an Idempotency-Key keeps the answer in the database)
        clean = {k: scrubbed(v) if isinstance(v, str) else v for k, v in params.items()}
        super().__init__(code, move=move, **clean)


@dataclass(frozen=True)
class FileRow:
    """One match of the file: ``row`` counts from 1; ``line`` is its line in the file
    (None in a JSON array). ``error`` ({"code", "move", "params"}) when it could
    not be read, else its ``record``."""

    row: int
    line: int | None
    record: Any = None
    played_on: str | None = None
    game_number: int | None = None
    error: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "line": self.line,
            "record": self.record,
            "played_on": self.played_on,
            "game_number": self.game_number,
            "error": self.error,
        }


#: what a multipart body may hold beside the file (the other fields, the boundaries)
BODY_SLACK = 64 * 1024


def body_too_large(meta: Any) -> bool:
    """Whether a request's announced ``Content-Length`` (``request.META``) is more than
    an import's file and its form could need: refused before the body is read."""
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > MAX_FILE_BYTES + BODY_SLACK


def read_bytes(source: bytes | IO[bytes]) -> bytes:
    """The file's bytes, read a chunk at a time: ``import-too-large`` (413) as soon as
    they pass :data:`MAX_FILE_BYTES`, without reading the rest."""
    if isinstance(source, bytes | bytearray):
        if len(source) > MAX_FILE_BYTES:
            raise FileRefused("import-too-large", limit_mb=MAX_FILE_BYTES >> 20)
        return bytes(source)
    parts: list[bytes] = []
    size = 0
    while chunk := source.read(CHUNK):
        size += len(chunk)
        if size > MAX_FILE_BYTES:
            raise FileRefused("import-too-large", limit_mb=MAX_FILE_BYTES >> 20)
        parts.append(chunk)
    return b"".join(parts)


def read_file(content: bytes) -> list[FileRow]:
    """The rows of an import file; :class:`FileRefused` when it cannot be read."""
    text = _decode(read_bytes(content))
    start = text.lstrip()[:1]
    if not start:
        raise FileRefused("import-empty")
    if start == "[":
        rows = _json_array(text)
    elif start == "{":
        rows = _json_lines(text)
    else:
        rows = _csv_rows(text)
    if not rows:
        raise FileRefused("import-empty")
    if "\x00" in text or UNSAFE_ESCAPE.search(text):
        return [_storable(row) for row in rows]
    return [_scrubbed(row) for row in rows]


def _count(rows: list[FileRow], line: int | None = None) -> None:
    """Refuse the file once it holds one row (or line) too many: checked as it is read."""
    if len(rows) >= MAX_ROWS:
        raise FileRefused("import-too-many-rows", most=MAX_ROWS)
    if line is not None and line > MAX_LINES:
        raise FileRefused("import-too-many-lines", most=MAX_LINES)


def _scrubbed(row: FileRow) -> FileRow:
    """An error's parameters quoted from the file, without NUL or lone surrogates."""
    if row.error is None:
        return row
    params = row.error.get("params") or {}
    clean = {k: scrubbed(v) if isinstance(v, str) else v for k, v in params.items()}
    return replace(row, error={**row.error, "params": clean})


def _storable(row: FileRow) -> FileRow:
    """The row as the database can keep it: a record holding a NUL or a lone
    surrogate becomes the row's error; an error's parameters quoted from the file are
    scrubbed of them."""
    if row.error is not None:
        return _scrubbed(row)
    # at C speed first: a NUL is escaped by dumps, a lone surrogate stays itself (a
    # pair is one character again); only a row that may hold one is searched in Python
    dumped = json.dumps(row.record, ensure_ascii=False)
    if "\\u0000" not in dumped and UNSAFE.search(dumped) is None:
        return row
    unsafe = find_unsafe(row.record, "record")
    if unsafe is None:
        return row
    error = RecordError("import-unsafe-text", None, field=scrubbed(unsafe)[:200])
    return replace(row, record=None, error=error.as_dict())


def _decode(content: bytes) -> str:
    """UTF-8 (with or without its byte-order mark), else the spreadsheets' Windows-1252."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _json(text: str) -> Any:
    return json.loads(text, parse_constant=_no_constant)


# ---------------------------------------------------------------------------
# JSON


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _json_array(text: str) -> list[FileRow]:
    """The array's items decoded one by one: refused at the 2,001st, before it is read."""
    try:
        items = _array_items(text)
    except (ValueError, RecursionError) as exc:
        raise FileRefused("not-json", reason=str(exc)[:200]) from exc
    return [_json_row(item, n, None) for n, item in enumerate(items, 1)]


def _array_items(text: str) -> list[Any]:
    at = _skip(text, _skip(text, 0) + 1)  # after "["
    items: list[Any] = []
    if text[at : at + 1] == "]":
        return _array_end(text, at + 1, items)
    while True:
        if len(items) >= MAX_ROWS:
            raise FileRefused("import-too-many-rows", most=MAX_ROWS)
        item, at = _DECODER.raw_decode(text, at)
        items.append(item)
        at = _skip(text, at)
        mark = text[at : at + 1]
        if mark == "]":
            return _array_end(text, at + 1, items)
        if mark != ",":
            raise ValueError(f"Expecting ',' delimiter: char {at}")
        at = _skip(text, at + 1)


def _skip(text: str, at: int) -> int:
    """The position of the first character after the white space at ``at``."""
    space = _SPACE.match(text, at)
    return space.end() if space else at


def _array_end(text: str, at: int, items: list[Any]) -> list[Any]:
    if text[at:].strip():
        raise ValueError(f"Extra data: char {at}")
    return items


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """The text's lines, numbered from 1, one at a time (no list of them all)."""
    return enumerate(io.StringIO(text), 1)


def _json_lines(text: str) -> list[FileRow]:
    try:  # one object written over several lines is one row
        whole = _json(text)
    except (ValueError, RecursionError):
        whole = None
    if isinstance(whole, dict):
        return [_json_row(whole, 1, 1)]
    rows: list[FileRow] = []
    for number, line in _lines(text):
        if number > MAX_LINES:
            _count(rows, number)
        if not line.strip():
            continue
        _count(rows)
        try:
            item = _json(line)
        except (ValueError, RecursionError) as exc:
            error = RecordError("not-json", None, reason=str(exc)[:200])
            rows.append(FileRow(len(rows) + 1, number, error=error.as_dict()))
            continue
        rows.append(_json_row(item, len(rows) + 1, number))
    return rows


def _json_row(item: Any, row: int, line: int | None) -> FileRow:
    if not isinstance(item, dict):
        return FileRow(row, line, error=RecordError("import-not-a-row", None).as_dict())
    if "record" in item and "game" not in item:
        extra = sorted(set(item) - {"record", "played_on", "game_number"})
        if extra:
            error = RecordError("import-unknown-key", None, key=str(extra[0])[:40])
            return FileRow(row, line, error=error.as_dict())
        record = item["record"]
    else:
        record = {k: v for k, v in item.items() if k not in ("played_on", "game_number")}
    try:
        played_on = _date(item.get("played_on"))
        number = _game_number(item.get("game_number"))
    except RecordError as error:
        return FileRow(row, line, error=error.as_dict())
    return FileRow(row, line, record=record, played_on=played_on, game_number=number)


def _date(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            pass
    raise RecordError("bad-field", None, field="played_on", expected="YYYY-MM-DD")


def _game_number(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip()[:4])  # "²" is a digit to isdigit(), not to int()
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 999:
        raise RecordError(
            "bad-field", None, field="game_number", expected="whole-number-between", low=1, high=999
        )
    number: int = value
    return number


# ---------------------------------------------------------------------------
# CSV


def _csv_rows(text: str) -> list[FileRow]:
    header = text.lstrip("\r\n").split("\n", 1)[0]
    delimiter = max(",;\t", key=header.count)
    reader = csv.reader(io.StringIO(text.lstrip("\r\n")), delimiter=delimiter)
    names = [name.strip().lower() for name in next(reader, [])]
    for column in ("game", "players"):
        if column not in names:
            raise FileRefused("import-missing-column", column=column)
    for name in names:
        if name and name not in ALL_COLUMNS:
            raise FileRefused("import-unknown-column", column=name[:40])
    rows: list[FileRow] = []
    while True:
        try:
            cells = next(reader, None)
        except csv.Error:  # a cell over the reader's limit: the row is refused
            _count(rows, reader.line_num)
            error = RecordError("import-cell-too-long", None, most=MAX_CELL)
            rows.append(FileRow(len(rows) + 1, reader.line_num, error=error.as_dict()))
            continue
        if cells is None:
            return rows
        if reader.line_num > MAX_LINES:
            _count(rows, reader.line_num)
        if not any(cell.strip() for cell in cells):
            continue
        _count(rows)
        if any(len(cell) > MAX_CELL for cell in cells):  # before any work on them
            error = RecordError("import-cell-too-long", None, most=MAX_CELL)
            rows.append(FileRow(len(rows) + 1, reader.line_num, error=error.as_dict()))
            continue
        values = {name: cell.strip() for name, cell in zip(names, cells, strict=False) if name}
        rows.append(_csv_row(values, len(rows) + 1, reader.line_num))


def _csv_row(values: dict[str, str], row: int, line: int) -> FileRow:
    try:
        game = values.get("game", "")
        build = BUILDERS.get(game)
        if build is None:
            raise RecordError("unknown-game", None, game=game[:40])
        for name, value in values.items():
            if value and name not in COMMON and name not in COLUMNS[game]:
                raise RecordError("import-cell-unused", None, column=name, game=game)
        players = values.get("players", "").split()
        record = build(values, players)
        played_on = _date(values.get("played_on"))
        number = _game_number(values.get("game_number"))
    except RecordError as error:
        return FileRow(row, line, error=error.as_dict())
    return FileRow(row, line, record=record, played_on=played_on, game_number=number)
