"""Summary records of every game (GAMES.md, "Summary records"): builders and forms.

The *builders* take typed values and return the record; the summary forms and the
rows of a bulk import (``files``) both use them. The *forms* read what was typed
(strings, kept whole for the page) into a :class:`SummaryForm`.

Field names: ``seat-N`` for the players, and by game —
divisor ``set``, ``divisor``, ``d{D}-points-{N}``, ``d{D}-pips-{N}``, ``d{D}-blocked``;
astronomy ``size``, ``winner`` (a seat), ``moves``, ``resign``;
9tka ``section-{S}`` (the seat that conquered section S, 0–8, or blank);
trimorp ``outcome`` (``five`` or ``series``), ``five`` (a seat), ``s{N}-4``,
``s{N}-3``, ``s{N}-2``, ``box_opener`` (a seat or blank);
dominyam ``tp-{N}`` (turn points), ``tile-{a}-{b}`` (the seat that ate it, or blank) and
``target_bonus`` (the rule option, ticked or not).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.astronomy.board import SIZES
from scoring.engine.divisor.sets import MAX_DIVISOR, SETS, set_pips
from scoring.engine.dominyam.tiles import NAMES as DOMINYAM_TILES
from scoring.engine.ninetka.board import SECTIONS, section_name
from scoring.entry.fields import (
    Data,
    Problems,
    player_place,
    read_seats,
    seat_choice,
    text,
    typed_seats,
    whole,
)
from scoring.entry.sheet import Built

#: seats by game: (fewest, most)
SEATS: dict[str, tuple[int, int]] = {
    "divisor": (2, 9),
    "astronomy": (2, 2),
    "9tka": (2, 4),
    "trimorp": (3, 3),
    "dominyam": (1, 8),
}
DEAL_FIELD = re.compile(r"^d(\d{1,3})-(points|pips)-(\d)$")
BLOCKED_FIELD = re.compile(r"^d(\d{1,3})-blocked$")
MAX_DEALS = 40


# ---------------------------------------------------------------------------
# Builders


def divisor_summary(
    players: list[str],
    top: int,
    divisor: int | None,
    deals: list[tuple[list[int], list[int], bool]],
) -> dict[str, Any]:
    """Per deal (points by seat, pips left by seat, blocked)."""
    rules: dict[str, Any] = {"set": top}
    if divisor is not None:
        rules["divisor"] = divisor
    summaries = []
    for points, pips, blocked in deals:
        summary: dict[str, Any] = {
            "points": dict(zip(players, points, strict=True)),
            "pips_left": dict(zip(players, pips, strict=True)),
        }
        if blocked:
            summary["blocked"] = True
        summaries.append({"summary": summary})
    return {"game": "divisor", "rules": rules, "players": players, "deals": summaries}


def astronomy_summary(
    players: list[str], size: int, winner: str, moves: int, resign: bool = False
) -> dict[str, Any]:
    summary: dict[str, Any] = {"winner": winner, "moves": moves}
    if resign:
        summary["resign"] = True
    return {"game": "astronomy", "rules": {"size": size}, "players": players, "summary": summary}


def ninetka_summary(players: list[str], sections: list[int]) -> dict[str, Any]:
    return {
        "game": "9tka",
        "players": players,
        "summary": {"sections": dict(zip(players, sections, strict=True))},
    }


def trimorp_summary(
    players: list[str],
    five: str | None,
    series: list[tuple[int, int, int]] | None,
    box_opener: str | None = None,
) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    if five is not None:
        summary["five"] = five
    if series is not None:
        summary["series"] = {
            player: {"4": fours, "3": threes, "2": twos}
            for player, (fours, threes, twos) in zip(players, series, strict=True)
        }
    record: dict[str, Any] = {"game": "trimorp", "players": players, "summary": summary}
    if box_opener:
        record["box_opener"] = box_opener
    return record


def dominyam_summary(
    players: list[str],
    turn_points: list[int],
    tiles: list[list[str]],
    target_bonus: bool = False,
) -> dict[str, Any]:
    """The summary record; ``target_bonus`` (the rule option, default off) is written
    only when on, as the API's records carry it (one match whichever way it came)."""
    summary = {
        player: {"turn_points": points, "tiles": eaten}
        for player, points, eaten in zip(players, turn_points, tiles, strict=True)
    }
    record: dict[str, Any] = {"game": "dominyam", "players": players, "summary": summary}
    if target_bonus:
        record["rules"] = {"target_bonus": True}
    return record


# ---------------------------------------------------------------------------
# The forms


@dataclass
class SummaryForm:
    """A summary form as typed: the seats, every other field by name, and the
    divisor's deals (points and pips by seat, blocked)."""

    game: str
    seats: list[str] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    deals: list[dict[str, Any]] = field(default_factory=list)


def _names(game: str) -> list[str]:
    """The scalar fields of ``game``'s form."""
    if game == "divisor":
        return ["set", "divisor"]
    if game == "astronomy":
        return ["size", "winner", "moves", "resign"]
    if game == "9tka":
        return [f"section-{s}" for s in range(SECTIONS)]
    if game == "trimorp":
        series = [f"s{n}-{k}" for n in range(3) for k in (4, 3, 2)]
        return ["outcome", "five", "box_opener", *series]
    tiles = [f"tile-{name}" for name in DOMINYAM_TILES]
    return [f"tp-{n}" for n in range(SEATS["dominyam"][1])] + tiles + ["target_bonus"]


def read_summary(game: str, data: Data) -> SummaryForm:
    """The summary form of ``game`` as typed in the posted ``data``."""
    form = SummaryForm(game, seats=typed_seats(data, SEATS[game][1]))
    form.values = {name: text(data, name) for name in _names(game)}
    if game == "divisor":
        form.deals = _typed_deals(data, len(form.seats))
    return form


def _typed_deals(data: Data, seats: int) -> list[dict[str, Any]]:
    numbers = set()
    for name in data:
        found = DEAL_FIELD.match(name) or BLOCKED_FIELD.match(name)
        if found:
            numbers.add(int(found.group(1)))
    return [
        {
            "points": [text(data, f"d{d}-points-{n}") for n in range(seats)],
            "pips": [text(data, f"d{d}-pips-{n}") for n in range(seats)],
            "blocked": bool(text(data, f"d{d}-blocked")),
        }
        for d in sorted(numbers)[:MAX_DEALS]
    ]


#: the seats a fresh form offers
FRESH_SEATS = {"divisor": 3, "astronomy": 2, "9tka": 3, "trimorp": 3, "dominyam": 2}


def fresh_summary(game: str) -> SummaryForm:
    form = SummaryForm(game, seats=[""] * FRESH_SEATS[game])
    if game == "divisor":
        form.values = {"set": "12"}
        form.deals = [{"points": [], "pips": [], "blocked": False}]
    if game == "astronomy":
        form.values = {"size": "5"}
    if game == "trimorp":
        form.values = {"outcome": "five"}
    return form


def summary_record(form: SummaryForm) -> Built:
    """The GAMES.md summary record of a typed form, or its problems."""
    problems = Problems()
    low, high = SEATS[form.game]
    players = read_seats(form.seats, problems, low, high)
    record = READERS[form.game](form, players, problems)
    return Built(None if problems else record, problems)


def _divisor(form: SummaryForm, players: list[str], problems: Problems) -> dict[str, Any]:
    values = form.values
    top = whole(values.get("set", ""), "set", problems, low=min(SETS), high=max(SETS))
    if top is not None and top not in SETS:
        problems.add("set", "bad-choice")
    divisor = whole(
        values.get("divisor", ""), "divisor", problems, low=1, high=MAX_DIVISOR, required=False
    )
    if not form.deals:
        problems.add("deals", "no-deals")
    deals = []
    for d, deal in enumerate(form.deals):
        points = _per_seat(deal["points"], f"d{d}-points", players, problems)
        high = set_pips(top) if top in SETS else None
        pips = _per_seat(deal["pips"], f"d{d}-pips", players, problems, high=high)
        deals.append((points, pips, bool(deal["blocked"])))
    if problems or top is None:
        return {}
    return divisor_summary(players, top, divisor, deals)


def _per_seat(
    typed: list[str], prefix: str, players: list[str], problems: Problems, high: int | None = None
) -> list[int]:
    out = []
    for n in range(len(players)):
        value = typed[n] if n < len(typed) else ""
        out.append(whole(value, f"{prefix}-{n}", problems, high=high) or 0)
    return out


def _astronomy(form: SummaryForm, players: list[str], problems: Problems) -> dict[str, Any]:
    values = form.values
    size = whole(values.get("size", ""), "size", problems, low=min(SIZES), high=max(SIZES))
    winner = _seat(values.get("winner", ""), players, "winner", problems)
    moves = whole(values.get("moves", ""), "moves", problems, high=27)
    if problems or size is None or winner is None or moves is None:
        return {}
    return astronomy_summary(players, size, winner, moves, bool(values.get("resign")))


def _ninetka(form: SummaryForm, players: list[str], problems: Problems) -> dict[str, Any]:
    sections = [0] * len(players)
    for s in range(SECTIONS):
        chosen = form.values.get(f"section-{s}", "")
        if chosen:
            seat = seat_choice(chosen, players, f"section-{s}", problems)
            if seat is not None:
                sections[seat] += 1
    return {} if problems else ninetka_summary(players, sections)


def _trimorp(form: SummaryForm, players: list[str], problems: Problems) -> dict[str, Any]:
    values = form.values
    opener = None
    if values.get("box_opener"):
        opener = _seat(values["box_opener"], players, "box_opener", problems)
    if values.get("outcome") == "five":
        five = _seat(values.get("five", ""), players, "five", problems)
        return {} if problems else trimorp_summary(players, five, None, opener)
    if values.get("outcome") != "series":
        problems.add("outcome", "bad-choice")
        return {}
    series = []
    for n in range(len(players)):
        counts = [
            whole(values.get(f"s{n}-{k}", ""), f"series-{n}", problems, high=108) or 0
            for k in (4, 3, 2)
        ]
        series.append((counts[0], counts[1], counts[2]))
    return {} if problems else trimorp_summary(players, None, series, opener)


def _dominyam(form: SummaryForm, players: list[str], problems: Problems) -> dict[str, Any]:
    points = [
        whole(form.values.get(f"tp-{n}", ""), f"tp-{n}", problems) or 0 for n in range(len(players))
    ]
    tiles: list[list[str]] = [[] for _ in players]
    for name in DOMINYAM_TILES:
        chosen = form.values.get(f"tile-{name}", "")
        if chosen:
            seat = seat_choice(chosen, players, "tiles", problems)
            if seat is not None:
                tiles[seat].append(name)
    bonus = bool(form.values.get("target_bonus"))
    return {} if problems else dominyam_summary(players, points, tiles, bonus)


def _seat(value: str, players: list[str], place: str, problems: Problems) -> str | None:
    seat = seat_choice(value, players, place, problems)
    return players[seat] if seat is not None else None


READERS: dict[str, Callable[[SummaryForm, list[str], Problems], dict[str, Any]]] = {
    "divisor": _divisor,
    "astronomy": _astronomy,
    "9tka": _ninetka,
    "trimorp": _trimorp,
    "dominyam": _dominyam,
}


def summary_error_place(form: SummaryForm, error: dict[str, Any]) -> str | None:
    """Where the engine's or the service's ``error`` belongs on a summary form."""
    params = error.get("params") or {}
    code, game = error.get("code"), form.game
    reason, where = params.get("reason"), params.get("field", "")
    if game == "divisor" and code in {"bad-pips", "summary-nobody-out"}:
        deal = params.get("deal")
        return f"d{deal - 1}" if isinstance(deal, int) and deal >= 1 else None
    if code == "bad-rules":
        return str(params.get("option"))
    if game == "astronomy" and (
        code in {"summary-parity", "summary-too-many-moves"} or where == "summary.moves"
    ):
        return "moves"
    if game == "9tka" and (reason == "sections-in-all" or where == "summary.sections"):
        return "sections"
    if game == "trimorp" and code in {"bad-summary", "bad-field"} and reason != "five-or-series":
        handle = params.get("player") or str(where).rsplit(".", 1)[-1]
        seat = player_place(handle, form.seats)
        return seat.replace("seat-", "series-") if seat else "outcome"
    if game == "dominyam" and code == "bad-summary":
        if reason == "bad-turn-points":
            seat = player_place(params.get("player"), form.seats)
            return seat.replace("seat-", "tp-") if seat else None
        return "tiles"
    return player_place(params.get("player"), form.seats)


def section_names() -> list[str]:
    return [section_name(s) for s in range(SECTIONS)]
