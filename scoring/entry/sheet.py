"""The divisor score sheet as a form (GAMES.md §1, "Score-sheet deals").

The paper sheet of a club table: the players in seat order, the set and the
divisor, then for each deal one row per turn — who played, and the sum of the ends
written after a tile laid, or a draw, a pass, a penalty draw — and each player's
pips left at the end of the deal.

Field names: ``seat-N``; ``set``, ``divisor``; ``d{D}-r{R}-player`` (a seat
index), ``d{D}-r{R}-kind`` (:data:`KINDS`), ``d{D}-r{R}-sum``; ``d{D}-pips-{N}``.
Deals and rows are read in the order of their numbers, which need not follow each
other (the page's script adds and removes rows); the state renumbers them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.divisor.sets import DEFAULT_DIVISORS, MAX_DIVISOR, SETS, set_pips
from scoring.entry.fields import (
    MAX_SEATS,
    Data,
    Problems,
    player_place,
    read_seats,
    seat_choice,
    text,
    typed_seats,
    whole,
)

#: what a row records: a tile laid (its sum), a draw, a pass, a penalty draw
KINDS = ("sum", "draw", "pass", "penalty")
DEFAULT_SET = 12
#: blank rows a fresh deal offers (the page's script adds more as they fill)
BLANK_ROWS = 8
MAX_DEALS = 40
MAX_ROWS = 800  # a double-21 deal: 253 tiles laid, draws and passes

ROW_FIELD = re.compile(r"^d(\d{1,3})-r(\d{1,4})-(player|kind|sum)$")
DEAL_FIELD = re.compile(r"^d(\d{1,3})-")


@dataclass
class SheetRow:
    player: str = ""
    kind: str = "sum"
    sum: str = ""

    def blank(self) -> bool:
        return self.kind == "sum" and not self.sum


@dataclass
class SheetDeal:
    rows: list[SheetRow] = field(default_factory=list)
    pips: list[str] = field(default_factory=list)  # by seat


@dataclass
class Sheet:
    """A score sheet as typed (strings), whole."""

    seats: list[str] = field(default_factory=list)
    set: str = str(DEFAULT_SET)
    divisor: str = ""
    deals: list[SheetDeal] = field(default_factory=list)


@dataclass
class Built:
    """A record built from a form, or the problems that kept it from being built.
    ``places[i]`` is the place of the record's move ``i`` (its sheet row)."""

    record: dict[str, Any] | None
    problems: Problems
    places: list[str] = field(default_factory=list)


def read_sheet(data: Data) -> Sheet:
    """The sheet as typed in the posted ``data`` (blank rows dropped)."""
    sheet = Sheet(seats=typed_seats(data), set=text(data, "set"), divisor=text(data, "divisor"))
    rows: dict[int, dict[int, SheetRow]] = {}
    deals: set[int] = set()
    for name in data:
        found = DEAL_FIELD.match(name)
        if found:
            deals.add(int(found.group(1)))
        found = ROW_FIELD.match(name)
        if found:
            deal, row, part = int(found.group(1)), int(found.group(2)), found.group(3)
            setattr(rows.setdefault(deal, {}).setdefault(row, SheetRow()), part, text(data, name))
    for deal in sorted(deals)[:MAX_DEALS]:
        typed = [rows.get(deal, {})[r] for r in sorted(rows.get(deal, {}))][:MAX_ROWS]
        pips = [text(data, f"d{deal}-pips-{n}") for n in range(len(sheet.seats))]
        sheet.deals.append(SheetDeal(rows=[row for row in typed if not row.blank()], pips=pips))
    return sheet


def fresh_sheet(seats: int = 3) -> Sheet:
    return Sheet(seats=[""] * seats, deals=[SheetDeal()])


def sheet_record(sheet: Sheet) -> Built:
    """The GAMES.md record of a typed sheet: ``{"game": "divisor", "rules",
    "players", "deals": [{"sheet": [...], "pips_left": {...}}]}``."""
    problems = Problems()
    players = read_seats(sheet.seats, problems, 2, MAX_SEATS)
    top = whole(sheet.set, "set", problems, low=min(SETS), high=max(SETS))
    if top is not None and top not in SETS:
        problems.add("set", "bad-choice")
        top = None
    divisor = whole(sheet.divisor, "divisor", problems, low=1, high=MAX_DIVISOR, required=False)
    if not sheet.deals:
        problems.add("deals", "no-deals")
    deals, places = [], []
    for d, deal in enumerate(sheet.deals):
        if not deal.rows:
            problems.add(f"d{d}", "no-rows")
        sheet_rows = []
        for r, row in enumerate(deal.rows):
            place = f"d{d}-r{r}"
            sheet_rows.append(_row(row, players, place, top, problems))
            places.append(place)
        pips = {
            handle: whole(
                deal.pips[n] if n < len(deal.pips) else "",
                f"d{d}-pips-{n}",
                problems,
                high=set_pips(top) if top else None,
            )
            for n, handle in enumerate(players)
        }
        deals.append({"sheet": sheet_rows, "pips_left": pips})
    if problems:
        return Built(None, problems)
    rules: dict[str, Any] = {"set": top}
    if divisor is not None:
        rules["divisor"] = divisor
    record = {"game": "divisor", "rules": rules, "players": players, "deals": deals}
    return Built(record, problems, places)


def _row(
    row: SheetRow, players: list[str], place: str, top: int | None, problems: Problems
) -> dict[str, Any]:
    seat = seat_choice(row.player, players, place, problems)
    handle = players[seat] if seat is not None else ""
    if row.kind == "sum":
        high = set_pips(top) if top else None
        return {"player": handle, "sum": whole(row.sum, place, problems, high=high)}
    if row.kind == "draw":
        return {"player": handle, "draw": True}
    if row.kind == "pass":
        return {"player": handle, "pass": True}
    if row.kind == "penalty":
        return {"player": handle, "draw": True, "penalty": True}
    problems.add(place, "bad-choice")
    return {"player": handle}


def error_place(error: dict[str, Any], places: list[str], seats: list[str]) -> str | None:
    """Where the engine's or the service's ``error`` belongs on the form: the row of
    its move, the deal it names, the seat of the player it names, the rule option."""
    move = error.get("move")
    if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < len(places):
        return places[move]
    params = error.get("params") or {}
    code = error.get("code")
    deal = params.get("deal")
    deal_codes = {"bad-pips", "sheet-not-ended", "summary-nobody-out", "deal-not-ended"}
    if code in deal_codes and isinstance(deal, int) and deal >= 1:
        return f"d{deal - 1}"
    if code in {"unknown-player", "player-twice", "bad-player"}:
        return player_place(params.get("player"), seats)
    if code == "bad-rules" and params.get("option") in ("set", "divisor"):
        return str(params["option"])
    return None


def default_divisor(sheet: Sheet) -> int | None:
    """The divisor the set gives when none is typed (for the page to show)."""
    try:
        return DEFAULT_DIVISORS.get(int(sheet.set))
    except ValueError:
        return None
