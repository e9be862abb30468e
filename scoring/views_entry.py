"""The organisers' guided entry forms (thin views).

* ``/matches/enter/divisor/sheet/`` — the divisor score sheet, row by row;
* ``/matches/enter/<game>/`` — the summary form of any game;
* ``/matches/enter/players/`` — the players a seat may pick (JSON, for the forms).

Every form keeps what was typed when something is refused: the problem or the
engine's error is shown where it belongs (``scoring.entry``'s *places*) and nothing
is stored. A form posted with ``more`` (the no-script way to add a row, a deal or a
seat) is shown again with room for it, and stores nothing either.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET

from federation.models import Club, Game, Player
from federation.permissions import can_write_for_club, organised_clubs
from scoring.engine.divisor.sets import DEFAULT_DIVISORS, SETS
from scoring.engine.dominyam.tiles import TILES
from scoring.entry.fields import Problems, shown_seats
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
from scoring.entry.summary import (
    SEATS,
    SummaryForm,
    fresh_summary,
    read_summary,
    section_names,
    summary_error_place,
    summary_record,
)
from scoring.errors import MatchRejected, localized, warning
from scoring.forms import MatchHeaderForm, problem_text
from scoring.services import match_record

#: the games with a summary form, in the order the entry page lists them
GAMES = ("divisor", "astronomy", "9tka", "trimorp", "dominyam")
PICKER_LIMIT = 30
ROW_PLACE = re.compile(r"^d(\d+)-r(\d+)$")
#: what a seat is called where the game gives it a role
SEAT_NAMES = {
    "astronomy": (_lazy("First player"), _lazy("Second player")),
    "trimorp": (_lazy("White (squares)"), _lazy("Grey (circles)"), _lazy("Black (hexagons)")),
}


# ---------------------------------------------------------------------------
# Storing what a form built


def _store(
    request: HttpRequest, header: MatchHeaderForm, record: dict[str, Any] | None
) -> tuple[HttpResponse | None, dict[str, Any] | None]:
    """Record the match of a valid form: the redirect to its page, or the refusal."""
    if record is None or not header.is_valid():
        return None, None
    data = header.cleaned_data
    try:
        recorded = match_record(
            club=data["club"],
            played_on=data["played_on"],
            record=record,
            submitted_by=request.user,
            game_number=data["game_number"],
        )
    except PermissionDenied:
        return None, {"message": _("You may only submit matches for a club you organise.")}
    except MatchRejected as exc:
        return None, exc.payload()
    for code, params in recorded.warnings:
        messages.warning(request, warning(code, **params)["message"])
    messages.success(request, _("The match was recorded."))
    return redirect("match-detail", pk=recorded.match.pk), None


def _place_messages(
    problems: Problems, error: dict[str, Any] | None, place: str | None
) -> dict[str, str]:
    """The words to show at each place: the form's problems, then the refusal's."""
    found = {where: problem_text(code, params) for where, (code, params) in problems.found.items()}
    if error and place and error.get("code"):
        found.setdefault(place, localized(error["code"], None, error.get("params") or {}))
    return found


def _seat_context(
    seats: list[str], low: int, high: int, shown: dict[str, str], names: Any = ()
) -> dict[str, Any]:
    listed = shown_seats(seats, low, high)
    return {
        "seats": [
            {
                "index": n,
                "number": n + 1,
                "label": names[n] if n < len(names) else _("Seat %(number)s") % {"number": n + 1},
                "value": value,
                "message": shown.get(f"seat-{n}"),
            }
            for n, value in enumerate(listed)
        ],
        "seat_options": [
            {"index": n, "label": value or _("Seat %(number)s") % {"number": n + 1}}
            for n, value in enumerate(listed)
        ],
        "seats_message": shown.get("seats"),
        "low": low,
        "high": high,
    }


def _club_players(request: HttpRequest, header: MatchHeaderForm) -> list[dict[str, str]]:
    """The players of the form's club, for the seats' list (its organisers see names)."""
    slug = header.data.get("club") if header.is_bound else header.initial.get("club")
    club = organised_clubs(request.user).filter(slug=slug or "").first()
    if club is None:
        return []
    players = Player.objects.filter(club=club).order_by("display_name")[:500]
    return [{"handle": p.handle, "name": p.display_name} for p in players]


def _page(
    request: HttpRequest,
    template: str,
    header: MatchHeaderForm,
    context: dict[str, Any],
    error: dict[str, Any] | None,
) -> HttpResponse:
    context.update(
        header=header,
        error=error,
        form_problems=bool(context.pop("problem_count", 0)) or bool(header.errors),
        club_players=_club_players(request, header),
        top_message=error.get("message") if error else None,
    )
    status = 400 if request.method == "POST" and not request.POST.get("more") else 200
    return render(request, template, context, status=status)


# ---------------------------------------------------------------------------
# The divisor score sheet


@login_required
def match_enter_sheet(request: HttpRequest) -> HttpResponse:
    """The paper score sheet of a divisor table as a form, checked by the engine."""
    header = MatchHeaderForm(request.POST or None, user=request.user)
    sheet, problems, error, place = fresh_sheet(), Problems(), None, None
    if request.method == "POST":
        sheet = read_sheet(request.POST)
        more = request.POST.get("more", "")
        if more:
            _make_room(sheet, more)
        else:
            built = sheet_record(sheet)
            problems = built.problems
            done, error = _store(request, header, built.record)
            if done:
                return done
            if error:
                place = error_place(error, built.places, sheet.seats)
                error = _on_the_sheet(error, place)
    shown = _place_messages(problems, error, place)
    context = _sheet_context(sheet, shown, fresh=request.method != "POST")
    context.update(error_place=place, problem_count=len(problems.found))
    return _page(request, "scoring/entry_sheet.html", header, context, error)


def _on_the_sheet(error: dict[str, Any], place: str | None) -> dict[str, Any]:
    """The refusal as the sheet names its place: "deal 1, row 3" rather than the
    record's move number across deals."""
    found = ROW_PLACE.match(place or "")
    if not found or not error.get("code"):
        return error
    words = localized(error["code"], None, error.get("params") or {})
    deal, row = int(found.group(1)) + 1, int(found.group(2)) + 1
    message = _("Deal %(deal)s, row %(row)s: %(message)s") % {
        "deal": deal,
        "row": row,
        "message": words,
    }
    return {**error, "message": message}


def _make_room(sheet: Sheet, more: str) -> None:
    if more == "seat" and len(sheet.seats) < SEATS["divisor"][1]:
        sheet.seats.append("")
    elif more == "deal":
        sheet.deals.append(SheetDeal())
    elif more.startswith("d") and more[1:].isdigit() and int(more[1:]) < len(sheet.deals):
        sheet.deals[int(more[1:])].rows.extend(SheetRow() for _ in range(BLANK_ROWS))


def _sheet_context(sheet: Sheet, shown: dict[str, str], *, fresh: bool) -> dict[str, Any]:
    context = _seat_context(sheet.seats, 2, SEATS["divisor"][1], shown)
    players = max(len(sheet.seats), 1)
    deals = []
    for d, deal in enumerate(sheet.deals or [SheetDeal()]):
        rows = list(deal.rows) + [
            SheetRow(player=_next_seat(deal.rows, players))
            for _ in range(BLANK_ROWS if fresh or not deal.rows else 2)
        ]
        deals.append(
            {
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
                    for n in range(len(context["seats"]))
                ],
            }
        )
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


def _next_seat(rows: list[SheetRow], players: int) -> str:
    """The seat after the last turn's (a penalty draw is out of turn)."""
    for row in reversed(rows):
        if row.kind != "penalty" and row.player.isdigit():
            return str((int(row.player) + 1) % players)
    return ""


# ---------------------------------------------------------------------------
# Summaries of every game


@login_required
def match_enter_summary(request: HttpRequest, game: str) -> HttpResponse:
    """A summary of one match of ``game``: what GAMES.md's summary records hold."""
    if game not in GAMES:
        raise Http404
    header = MatchHeaderForm(request.POST or None, user=request.user)
    form, problems, error, place = fresh_summary(game), Problems(), None, None
    if request.method == "POST":
        form = read_summary(game, request.POST)
        more = request.POST.get("more", "")
        if more == "seat" and len(form.seats) < SEATS[game][1]:
            form.seats.append("")
        elif more == "deal":
            form.deals.append({"points": [], "pips": [], "blocked": False})
        else:
            built = summary_record(form)
            problems = built.problems
            done, error = _store(request, header, built.record)
            if done:
                return done
            if error:
                place = summary_error_place(form, error)
    shown = _place_messages(problems, error, place)
    context = _summary_context(form, shown)
    context.update(error_place=place, problem_count=len(problems.found))
    return _page(request, "scoring/entry_summary.html", header, context, error)


def _summary_context(form: SummaryForm, shown: dict[str, str]) -> dict[str, Any]:
    low, high = SEATS[form.game]
    context = _seat_context(form.seats, low, high, shown, SEAT_NAMES.get(form.game, ()))
    seats = len(context["seats"])
    values = form.values
    game = Game.objects.filter(key=form.game).first()
    context.update(
        game=form.game,
        game_label=game.label if game else form.game,
        values=values,
        shown=shown,
    )
    if form.game == "divisor":
        context["sets"] = [{"value": top, "divisor": DEFAULT_DIVISORS[top]} for top in SETS]
        context["deals"] = [
            {
                "index": d,
                "number": d + 1,
                "blocked": deal["blocked"],
                "message": shown.get(f"d{d}"),
                "players": [
                    {
                        "seat": n,
                        "points": _at(deal["points"], n),
                        "pips": _at(deal["pips"], n),
                        "message": shown.get(f"d{d}-points-{n}") or shown.get(f"d{d}-pips-{n}"),
                    }
                    for n in range(seats)
                ],
            }
            for d, deal in enumerate(form.deals or [{"points": [], "pips": [], "blocked": False}])
        ]
    elif form.game == "9tka":
        names = section_names()
        # as the board lies: row 10 on top, B2-D4 at the bottom left
        context["sections"] = [
            {"field": f"section-{s}", "name": names[s], "owner": values.get(f"section-{s}", "")}
            for top in (6, 3, 0)
            for s in range(top, top + 3)
        ]
    elif form.game == "trimorp":
        context["series"] = [
            {
                "seat": n,
                "counts": [(k, values.get(f"s{n}-{k}", "")) for k in (4, 3, 2)],
                "message": shown.get(f"series-{n}"),
            }
            for n in range(seats)
        ]
    elif form.game == "dominyam":
        context["turn_points"] = [
            {"seat": n, "value": values.get(f"tp-{n}", ""), "message": shown.get(f"tp-{n}")}
            for n in range(seats)
        ]
        context["tiles"] = [
            {
                "field": f"tile-{a}-{b}",
                "name": f"{a}-{b}",
                "a": a,
                "b": b,
                "owner": values.get(f"tile-{a}-{b}", ""),
            }
            for a, b in TILES
        ]
    return context


def _at(values: list[str], n: int) -> str:
    return values[n] if n < len(values) else ""


# ---------------------------------------------------------------------------
# The seats' players


@login_required
@require_GET
def entry_players(request: HttpRequest) -> JsonResponse:
    """Players a seat may pick: the club's (with their names, for its organisers),
    then any player whose handle or public name holds ``q`` (public names only)."""
    club = Club.objects.filter(slug=request.GET.get("club", "")).first()
    query = request.GET.get("q", "").strip()[:40]
    found: list[dict[str, str]] = []
    if club is not None and can_write_for_club(request.user, club):
        own = Player.objects.filter(club=club)
        if query:
            own = own.filter(Q(handle__icontains=query) | Q(display_name__icontains=query))
        found = [
            {"handle": p.handle, "name": p.display_name}
            for p in own.order_by("display_name")[:PICKER_LIMIT]
        ]
    if query and len(found) < PICKER_LIMIT:
        others = Player.objects.filter(
            Q(handle__icontains=query) | Q(public_name=True, display_name__icontains=query)
        )
        if club is not None:
            others = others.exclude(club=club)
        found += [
            {"handle": p.handle, "name": p.public_display_name}
            for p in others.order_by("handle")[: PICKER_LIMIT - len(found)]
        ]
    return JsonResponse({"players": found})
