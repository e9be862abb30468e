"""The divisor score sheet as a form (a thin view): the paper sheet of a table, one
row per turn, checked by the engine; a refusal is shown at its deal and row."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from core.errors import localized
from core.form_limits import shown_again
from core.params import digits
from scoring.engine.divisor.sets import DEFAULT_DIVISORS, SETS
from scoring.entry.fields import Problems
from scoring.entry.sheet import (
    BLANK_ROWS,
    KINDS,
    Sheet,
    SheetDeal,
    SheetRow,
    error_place,
    fresh_sheet,
    read_sheet,
    sheet_record,
)
from scoring.entry.summary import SEATS
from scoring.web.entry import Saver, entry_page, place_messages, seat_context, store
from scoring.web.forms import MatchHeaderForm

ROW_PLACE = re.compile(r"^d(\d+)-r(\d+)$")


@login_required
def match_enter_sheet(request: HttpRequest) -> HttpResponse:
    """The paper score sheet of a divisor table as a form, checked by the engine."""
    return sheet_page(request, MatchHeaderForm(request.POST or None, user=request.user))


def sheet_page(
    request: HttpRequest,
    header: MatchHeaderForm,
    *,
    save: Saver = store,
    initial: Sheet | None = None,
    template: str = "scoring/entry_sheet.html",
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    """The score sheet's page, for the club form and the pages that reuse it (a
    tournament table, a correction): ``save`` stores the built record, ``initial``
    fills a fresh sheet, ``extra`` adds to the template's context (``seats_fixed``:
    the players cannot change)."""
    sheet, problems, error, place = initial or fresh_sheet(), Problems(), None, None
    extra = dict(extra or {})
    if request.method == "POST" or shown_again(request):
        sheet = read_sheet(request.POST)
        more = request.POST.get("more", "")
        if more or shown_again(request):
            _make_room(sheet, more, fixed=bool(extra.get("seats_fixed")))
        else:
            built = sheet_record(sheet)
            problems = built.problems
            done, error = save(request, header, built.record)
            if done:
                return done
            if error:
                place = error_place(error, built.places, sheet.seats)
                error = _on_the_sheet(error, place)
    shown = place_messages(problems, error, place)
    bounds = (len(sheet.seats), len(sheet.seats)) if extra.get("seats_fixed") else None
    fresh = not request.POST and initial is None
    context = _sheet_context(sheet, shown, fresh=fresh, bounds=bounds)
    context.update(error_place=place, problem_count=len(problems.found), **extra)
    return entry_page(request, template, header, context, error)


def _on_the_sheet(error: dict[str, Any], place: str | None) -> dict[str, Any]:
    """The refusal as the sheet names its place: "deal 1, row 3" rather than the
    record's move number across deals."""
    found = ROW_PLACE.match(place or "")
    if not found or not error.get("code"):
        return error
    words = localized(error["code"], None, error.get("params") or {}, public=True)
    deal, row = int(found.group(1)) + 1, int(found.group(2)) + 1
    message = _("Deal %(deal)s, row %(row)s: %(message)s") % {
        "deal": deal,
        "row": row,
        "message": words,
    }
    return {**error, "message": message}


def _make_room(sheet: Sheet, more: str, *, fixed: bool = False) -> None:
    if more == "seat" and not fixed and len(sheet.seats) < SEATS["divisor"][1]:
        sheet.seats.append("")
    elif more == "deal":
        sheet.deals.append(SheetDeal())
    elif (deal := digits(more[1:], len(sheet.deals) - 1)) is not None and more[:1] == "d":
        # "d<deal>" with ASCII digits; any other value of the button is ignored
        sheet.deals[deal].rows.extend(SheetRow() for _ in range(BLANK_ROWS))


def _sheet_context(
    sheet: Sheet, shown: dict[str, str], *, fresh: bool, bounds: tuple[int, int] | None = None
) -> dict[str, Any]:
    low, high = bounds or (2, SEATS["divisor"][1])
    context = seat_context(sheet.seats, low, high, shown)
    players = max(len(sheet.seats), 1)
    seats = len(context["seats"])
    deals = [
        _deal_context(d, deal, shown, players, seats, fresh=fresh)
        for d, deal in enumerate(sheet.deals or [SheetDeal()])
    ]
    context.update(
        sheet=sheet,
        deals=deals,
        sets=[{"value": top, "divisor": DEFAULT_DIVISORS[top]} for top in SETS],
        kinds=KINDS,
        set_message=shown.get("set"),
        divisor_message=shown.get("divisor"),
        deals_message=shown.get("deals"),
    )
    return context


def _deal_context(
    d: int, deal: SheetDeal, shown: dict[str, str], players: int, seats: int, *, fresh: bool
) -> dict[str, Any]:
    """One deal of the sheet: its rows (with blank ones to type into) and the pips left."""
    rows = list(deal.rows) + [
        SheetRow(player=_next_seat(deal.rows, players))
        for _ in range(BLANK_ROWS if fresh or not deal.rows else 2)
    ]
    return {
        "index": d,
        "number": d + 1,
        "message": shown.get(f"d{d}"),
        "rows": [
            {
                "index": r,
                "number": r + 1,
                "player": row.player,
                "kind": row.kind,
                "sum": row.sum,
                "message": shown.get(f"d{d}-r{r}"),
            }
            for r, row in enumerate(rows)
        ],
        "pips": [
            {
                "seat": n,
                "value": deal.pips[n] if n < len(deal.pips) else "",
                "message": shown.get(f"d{d}-pips-{n}"),
            }
            for n in range(seats)
        ],
    }


def _next_seat(rows: list[SheetRow], players: int) -> str:
    """The seat after the last turn's (a penalty draw is out of turn)."""
    for row in reversed(rows):
        if row.kind != "penalty" and row.player.isdigit():
            return str((int(row.player) + 1) % players)
    return ""
