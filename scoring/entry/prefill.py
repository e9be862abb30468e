"""The guided forms filled in: for a tournament table (its players and rules) and for
the correction of a stored record (the record written back into the form).

A stored record is offered in a form only when the form gives it back exactly:
:func:`sheet_of` and :func:`summary_of` write the record into the form, build the
record again (``sheet_record``, ``summary_record``) and compare; anything the form
cannot hold (a move-by-move record, a rule the form has no field for) answers None
and the record keeps the JSON editor.
"""

from __future__ import annotations

from typing import Any

from scoring.engine.dominyam.tiles import NAMES as DOMINYAM_TILES
from scoring.engine.ninetka.board import SECTIONS
from scoring.entry.sheet import DEFAULT_SET, Sheet, SheetDeal, SheetRow, sheet_record
from scoring.entry.summary import SummaryForm, fresh_summary, summary_record


def _rule(rules: dict[str, Any] | None, name: str, default: str = "") -> str:
    value = (rules or {}).get(name)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return default


def sheet_for(players: list[str], rules: dict[str, Any] | None = None) -> Sheet:
    """A blank divisor score sheet for ``players`` (in seat order) and ``rules``."""
    return Sheet(
        seats=list(players),
        set=_rule(rules, "set", str(DEFAULT_SET)),
        divisor=_rule(rules, "divisor"),
        deals=[SheetDeal()],
    )


def summary_for(game: str, players: list[str], rules: dict[str, Any] | None = None) -> SummaryForm:
    """A blank summary form of ``game`` for ``players`` and ``rules``."""
    form = fresh_summary(game)
    form.seats = list(players)
    if game == "divisor":
        form.values.update(set=_rule(rules, "set", "12"), divisor=_rule(rules, "divisor"))
    if game == "astronomy":
        form.values["size"] = _rule(rules, "size", form.values.get("size", "5"))
    return form


# ---------------------------------------------------------------------------
# A stored record back into its form


def sheet_of(record: Any) -> Sheet | None:
    """The score sheet that gives ``record`` back, or None (not a sheet record)."""
    try:
        sheet = _sheet(record)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    if sheet is None or sheet_record(sheet).record != record:
        return None
    return sheet


def _sheet(record: dict[str, Any]) -> Sheet | None:
    if record.get("game") != "divisor" or not record.get("deals"):
        return None
    players = [str(p) for p in record["players"]]
    seat = {handle: str(n) for n, handle in enumerate(players)}
    rules = record.get("rules") or {}
    sheet = Sheet(seats=players, set=_rule(rules, "set"), divisor=_rule(rules, "divisor"))
    for deal in record["deals"]:
        if "sheet" not in deal:
            return None
        rows = [_sheet_row(row, seat) for row in deal["sheet"]]
        pips = [_number(deal["pips_left"][handle]) for handle in players]
        sheet.deals.append(SheetDeal(rows=rows, pips=pips))
    return sheet


def _sheet_row(row: dict[str, Any], seat: dict[str, str]) -> SheetRow:
    player = seat[row["player"]]
    if row.get("penalty"):
        return SheetRow(player=player, kind="penalty")
    if row.get("draw"):
        return SheetRow(player=player, kind="draw")
    if row.get("pass"):
        return SheetRow(player=player, kind="pass")
    return SheetRow(player=player, kind="sum", sum=_number(row["sum"]))


def _number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("not a whole number")
    return str(value)


def summary_of(record: Any) -> SummaryForm | None:
    """The summary form that gives ``record`` back, or None (not a summary record)."""
    try:
        form = _summary(record)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    if form is None or summary_record(form).record != record:
        return None
    return form


def _summary(record: dict[str, Any]) -> SummaryForm | None:
    game = record.get("game")
    players = [str(p) for p in record["players"]]
    seat = {handle: str(n) for n, handle in enumerate(players)}
    form = SummaryForm(str(game), seats=players)
    if game == "divisor":
        rules = record.get("rules") or {}
        form.values = {"set": _rule(rules, "set"), "divisor": _rule(rules, "divisor")}
        for deal in record["deals"]:
            summary = deal["summary"]
            form.deals.append(
                {
                    "points": [_number(summary["points"][h]) for h in players],
                    "pips": [_number(summary["pips_left"][h]) for h in players],
                    "blocked": bool(summary.get("blocked")),
                }
            )
        return form
    summary = record["summary"]
    if game == "astronomy":
        form.values = {
            "size": _rule(record.get("rules"), "size"),
            "winner": seat[summary["winner"]],
            "moves": _number(summary["moves"]),
            "resign": "on" if summary.get("resign") else "",
        }
    elif game == "9tka":
        owners = [seat[h] for h in players for _ in range(int(summary["sections"][h]))]
        if len(owners) > SECTIONS:
            return None
        form.values = {f"section-{s}": owner for s, owner in enumerate(owners)}
    elif game == "trimorp":
        form.values = _trimorp_values(record, summary, players, seat)
    elif game == "dominyam":
        form.values = {f"tp-{n}": _number(summary[h]["turn_points"]) for n, h in enumerate(players)}
        for n, handle in enumerate(players):
            for tile in summary[handle]["tiles"]:
                if tile not in DOMINYAM_TILES:
                    return None
                form.values[f"tile-{tile}"] = str(n)
    else:
        return None
    return form


def _trimorp_values(
    record: dict[str, Any], summary: dict[str, Any], players: list[str], seat: dict[str, str]
) -> dict[str, str]:
    values = {"box_opener": seat[record["box_opener"]] if record.get("box_opener") else ""}
    if "five" in summary:
        values.update(outcome="five", five=seat[summary["five"]])
        return values
    values["outcome"] = "series"
    for n, handle in enumerate(players):
        for k in (4, 3, 2):
            values[f"s{n}-{k}"] = _number(summary["series"][handle][str(k)])
    return values
