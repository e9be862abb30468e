"""The match page as people read it: names instead of handles, standings by rank,
each game's moves in words and figures, the divisor's deals, a board picture.

Everything is read from the stored record and its replay (``Match.record``,
``Match.result``): a *row* here is one line of a table, its *cells* already text.
Players are shown by their public names (initials without consent).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine.divisor.sets import DEFAULT_DIVISORS
from scoring.models import Match, MatchSeat
from scoring.web.boards import board_of

COMBINATIONS = {
    "Full": gettext_lazy("Full"),
    "Large straight": gettext_lazy("Large straight"),
    "Small straight": gettext_lazy("Small straight"),
    "Three of a kind": gettext_lazy("Three of a kind"),
    "Pair": gettext_lazy("Pair"),
    "Values": gettext_lazy("Values"),
}
PIECES = (gettext_lazy("white square"), gettext_lazy("grey circle"), gettext_lazy("black hexagon"))


def cell(text: Any, label: Any = "", css: str = "") -> dict[str, Any]:
    """One cell of a table: its text, the label a phone shows before it (the table
    collapses to one card per row there), its classes (``num``, ``lead``, ``key``)."""
    return {"text": "" if text is None else str(text), "label": label, "css": css}


class Names:
    """Handles as a record writes them -> the players' public names (by seat, so a
    handle written in other capitals is found too)."""

    def __init__(self, match: Match) -> None:
        seats = list(match.seats.all())
        handles = match.record.get("players") or [] if isinstance(match.record, dict) else []
        self.by_handle: dict[str, MatchSeat] = {}
        for seat in seats:
            self.by_handle[seat.player.handle.lower()] = seat
            if seat.seat < len(handles) and isinstance(handles[seat.seat], str):
                self.by_handle[handles[seat.seat].lower()] = seat

    def __call__(self, handle: Any) -> str:
        seat = self.by_handle.get(str(handle).lower())
        return seat.player.public_display_name if seat else str(handle)

    def seat(self, handle: Any) -> int | None:
        found = self.by_handle.get(str(handle).lower())
        return found.seat if found else None


def match_display(match: Match) -> dict[str, Any]:
    """What the match page shows beyond the match's own fields."""
    names = Names(match)
    game = match.game.key
    heads, rows = MOVES.get(game, _no_moves)(match, names)
    mistake = (match.analysis or {}).get("decisive_mistake")
    return {
        "standing_heads": STANDING_HEADS.get(game, ()),
        "standings": standings(match, game),
        "move_heads": heads,
        "move_rows": rows,
        "deals": _deals(match, names) if game == "divisor" else [],
        "board": board_of(match, names),
        "mistake": {**mistake, "name": names(mistake.get("player"))} if mistake else None,
    }


# ---------------------------------------------------------------------------
# Standings


STANDING_HEADS: dict[str, tuple[Any, ...]] = {
    "divisor": (gettext_lazy("Score"), gettext_lazy("Points"), gettext_lazy("Pips left")),
    "astronomy": (gettext_lazy("Result"), gettext_lazy("Tiles laid")),
    "9tka": (gettext_lazy("Sections"),),
    "trimorp": (gettext_lazy("Result"), gettext_lazy("Series of 4 · 3 · 2")),
    "dominyam": (
        gettext_lazy("Score"),
        gettext_lazy("Turn points"),
        gettext_lazy("Penalty"),
        gettext_lazy("Combinations"),
    ),
}


def standings(match: Match, game: str) -> list[dict[str, Any]]:
    """The seats by rank (then seat); unranked seats (an unfinished match) last."""
    seats = sorted(match.seats.all(), key=lambda s: (s.rank is None, s.rank or 0, s.seat))
    heads = STANDING_HEADS.get(game, ())
    rows = []
    for seat in seats:
        values = _standing_values(seat, game) if seat.rank is not None else [""] * len(heads)
        cells = [
            cell(value, head, "num" if n < len(heads) - 1 or game != "dominyam" else "")
            for n, (head, value) in enumerate(zip(heads, values, strict=True))
        ]
        rows.append({"rank": seat.rank, "seat": seat, "cells": cells})
    return rows


def _standing_values(seat: MatchSeat, game: str) -> list[str]:
    details = seat.details or {}
    won = _("won") if seat.score == 1 else _("lost")
    if game == "divisor":
        return [_text(seat.score), _text(seat.points), _text(seat.deduction)]
    if game == "astronomy":
        return [won, _text(details.get("moves"))]
    if game == "9tka":
        return [_text(details.get("sections"))]
    if game == "trimorp":
        series = details.get("series")
        shown = " · ".join(_text(series.get(k)) for k in ("4", "3", "2")) if series else "—"
        return [_("won") if seat.rank == 1 else "", shown]
    if game == "dominyam":
        combos = details.get("combinations") or {}
        listed = "; ".join(
            f"{COMBINATIONS.get(name, name)}: {' '.join(combo.get('tiles', []))} "
            f"({combo.get('points')})"
            for name, combo in combos.items()
        )
        return [
            _text(seat.score),
            _text(details.get("turn_points")),
            _text(details.get("penalty")),
            listed,
        ]
    return [_text(seat.score)]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


# ---------------------------------------------------------------------------
# Moves, game by game

Moves = tuple[tuple[Any, ...], list[dict[str, Any]]]


def _no_moves(match: Match, names: Names) -> Moves:
    return (), []


def _divisor_moves(match: Match, names: Names) -> Moves:
    record, result = match.record, match.result
    rules = record.get("rules") or {}
    divisor = rules.get("divisor") or DEFAULT_DIVISORS.get(rules.get("set") or 0, 0)
    entries: list[dict[str, Any]] = []
    for deal in record.get("deals") or []:
        listed = deal.get("moves") if deal.get("hands") is not None else deal.get("sheet")
        entries.extend(listed or [])
    several = len(record.get("deals") or []) > 1
    rows: list[dict[str, Any]] = []
    turn, deal_of = 0, None
    for move, entry in zip(result.get("moves", []), entries, strict=False):
        if move.get("deal") != deal_of:
            deal_of, turn = move.get("deal"), 0
            if several:
                number = (deal_of or 0) + 1
                rows.append({"deal": _("Deal %(number)s") % {"number": number}, "cells": []})
        turn += 1
        what, laid = _divisor_what(entry)
        ends = move.get("ends_sum") if laid else None
        points = move.get("points") or 0
        quotient = f"{ends} ÷ {divisor} = {points}" if laid and points else ""
        cells = [
            cell(turn, "", "num key"),
            cell(names(move.get("player")), "", "lead"),
            cell(what),
            cell(ends, _("ends"), "num"),
            cell(quotient, "", "num strong"),
            cell(_text(move.get("total")), "Σ", "num"),
        ]
        rows.append({"cells": cells, "kind": "laid" if laid else "other"})
    heads = (
        gettext_lazy("Turn"),
        gettext_lazy("Player"),
        gettext_lazy("Play"),
        gettext_lazy("Ends sum"),
        gettext_lazy("Quotient (points)"),
        gettext_lazy("Running total"),
    )
    return heads, rows


def _divisor_what(entry: dict[str, Any]) -> tuple[str, bool]:
    """What a move or sheet row did, in words, and whether a tile was laid."""
    if entry.get("tile") is not None:
        tile, on, at = entry["tile"], entry.get("on"), entry.get("at") or "end"
        if on is None:
            return _("opens with %(tile)s") % {"tile": tile}, True
        where = {
            "end": _("%(tile)s on %(on)s"),
            "half": _("%(tile)s on a half of %(on)s"),
            "side": _("%(tile)s on a side of %(on)s"),
        }.get(at, _("%(tile)s on %(on)s"))
        return where % {"tile": tile, "on": on}, True
    if entry.get("sum") is not None:
        return _("tile laid"), True
    if entry.get("draw") is not None and entry.get("penalty"):
        return _("penalty draw (out of turn)"), False
    if entry.get("draw") is not None:
        return _("draws"), False
    return _("passes"), False


def _astronomy_moves(match: Match, names: Names) -> Moves:
    entries = match.record.get("moves") or []
    rows = []
    for move, entry in zip(match.result.get("moves", []), entries, strict=False):
        if entry.get("resign"):
            play, cells = _("resigns"), ""
        else:
            play = entry.get("tile", "")
            cells = " ".join(f"({r}, {c})" for r, c in entry.get("cells") or [])
        row = [
            cell(move["index"] + 1, "", "num key"),
            cell(names(move.get("player")), "", "lead"),
            cell(play),
            cell(cells),
            cell(move.get("legal_moves_left"), _("replies left"), "num"),
        ]
        rows.append({"cells": row, "kind": "other"})
    heads = (
        gettext_lazy("Move"),
        gettext_lazy("Player"),
        gettext_lazy("Tile"),
        gettext_lazy("Cells (row, column)"),
        gettext_lazy("Replies left to the opponent"),
    )
    return heads, rows


def _ninetka_moves(match: Match, names: Names) -> Moves:
    rows = []
    for move in match.result.get("moves", []):
        if "neutral" in move:
            play = _("neutral stone on %(cell)s") % {"cell": move["neutral"]}
        elif "place" in move:
            play = _("stone on %(cell)s") % {"cell": move["place"]}
        else:
            play = _("slides %(cell)s to %(to)s") % {
                "cell": move.get("slide"),
                "to": move.get("to"),
            }
        row = [cell(move["index"] + 1, "", "num key"), cell(names(move.get("player")), "", "lead")]
        rows.append({"cells": [*row, cell(play)], "kind": "other"})
    return (gettext_lazy("Move"), gettext_lazy("Player"), gettext_lazy("Play")), rows


def _trimorp_moves(match: Match, names: Names) -> Moves:
    rows = []
    for move in match.result.get("moves", []):
        seat = names.seat(move.get("player"))
        piece = str(PIECES[seat]) if seat is not None and seat < 3 else ""
        row = [
            cell(move["index"] + 1, "", "num key"),
            cell(names(move.get("player")), "", "lead"),
            cell(piece),
            cell(move.get("cell", "")),
        ]
        rows.append({"cells": row, "kind": "other"})
    heads = (
        gettext_lazy("Move"),
        gettext_lazy("Player"),
        gettext_lazy("Piece"),
        gettext_lazy("Cell"),
    )
    return heads, rows


def _dominyam_moves(match: Match, names: Names) -> Moves:
    turns = match.record.get("turns") or []
    rows = []
    for move, entry in zip(match.result.get("moves", []), turns, strict=False):
        best = move.get("best_meal")
        row = [
            cell(move.get("turn"), "", "num key"),
            cell(names(move.get("player")), "", "lead"),
            cell(" ".join(str(d) for d in entry.get("dice") or []), _("dice")),
            cell(" + ".join(move["eat"]) if move.get("eat") else _("no meal")),
            cell(move.get("point_die"), _("point die"), "num"),
            cell(move.get("target"), _("target"), "num"),
            cell(move.get("points"), _("points"), "num"),
            cell(f"{' + '.join(best['eat'])} ({best['sum']})" if best else "—", _("best")),
        ]
        rows.append({"cells": row, "kind": "laid" if move.get("eat") else "other"})
    heads = (
        gettext_lazy("Turn"),
        gettext_lazy("Player"),
        gettext_lazy("Dice"),
        gettext_lazy("Meal"),
        gettext_lazy("Point die"),
        gettext_lazy("Target"),
        gettext_lazy("Points"),
        gettext_lazy("Best meal the dice allowed"),
    )
    return heads, rows


MOVES: dict[str, Callable[[Match, Names], Moves]] = {
    "divisor": _divisor_moves,
    "astronomy": _astronomy_moves,
    "9tka": _ninetka_moves,
    "trimorp": _trimorp_moves,
    "dominyam": _dominyam_moves,
}


def _deals(match: Match, names: Names) -> list[dict[str, Any]]:
    """Divisor: each deal's points, pips left and score per player, in seat order."""
    kinds = {
        "full": _("played tile by tile"),
        "sheet": _("score sheet"),
        "summary": _("summary"),
    }
    endings = {"out": _("a player went out"), "blocked": _("blocked"), None: _("not ended")}
    deals = []
    for deal in match.result.get("deals") or []:
        players = deal.get("players") or {}
        deals.append(
            {
                "number": deal.get("deal", 0) + 1,
                "kind": kinds.get(deal.get("kind"), ""),
                "ended": endings.get(deal.get("ended"), ""),
                "players": [
                    {
                        "name": names(handle),
                        "points": figures.get("points"),
                        "pips_left": figures.get("pips_left"),
                        "score": figures.get("score"),
                    }
                    for handle, figures in players.items()
                ],
            }
        )
    return deals
