"""A blank divisor score sheet to print (``/matches/enter/divisor/sheet/print/``):
the columns of the sheet form (player, ends sum, quotient, draw or pass, pips left),
one row per turn, for a table of two to four players written in by hand. A
tournament's round prints the same sheet with its tables' players
(``tournaments.views.round_sheets``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

#: rows of a printed divisor sheet (one per turn: a tile laid, a draw or a pass)
ROWS = 30
#: the seats of a blank sheet unless ``?seats=`` says 2 or 3
SEATS = 4


def blank_divisor_sheet(request: HttpRequest) -> HttpResponse:
    raw = request.GET.get("seats", "")
    seats = int(raw) if raw in ("2", "3", "4") else SEATS
    context = {"seats": [None] * seats, "rows": range(1, ROWS + 1)}
    return render(request, "scoring/divisor_paper.html", context)
