"""The summary form of every game (a thin view): what GAMES.md's summary records
hold, with pickers (seats, tiles from the set, sections of the board) instead of
free text."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy

from core.form_limits import shown_again
from federation.models import Game
from scoring.engine.divisor.sets import DEFAULT_DIVISORS, SETS
from scoring.engine.dominyam.tiles import TILES
from scoring.entry.fields import Problems
from scoring.entry.summary import (
    SEATS,
    SummaryForm,
    fresh_summary,
    read_summary,
    section_names,
    summary_error_place,
    summary_record,
)
from scoring.web.entry import (
    GAMES,
    Saver,
    entry_page,
    place_messages,
    seat_context,
    store,
)
from scoring.web.forms import MatchHeaderForm

#: what a seat is called where the game gives it a role
SEAT_NAMES = {
    "astronomy": (gettext_lazy("First player"), gettext_lazy("Second player")),
    "trimorp": (
        gettext_lazy("White (squares)"),
        gettext_lazy("Grey (circles)"),
        gettext_lazy("Black (hexagons)"),
    ),
}
BLANK_DEAL: dict[str, Any] = {"points": [], "pips": [], "blocked": False}


@login_required
def match_enter_summary(request: HttpRequest, game: str) -> HttpResponse:
    """A summary of one match of ``game``: what GAMES.md's summary records hold."""
    if game not in GAMES:
        raise Http404
    return summary_page(request, game, MatchHeaderForm(request.POST or None, user=request.user))


def summary_page(
    request: HttpRequest,
    game: str,
    header: MatchHeaderForm,
    *,
    save: Saver = store,
    initial: SummaryForm | None = None,
    template: str = "scoring/entry_summary.html",
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    """The summary form's page of ``game``, for the club form and the pages that reuse
    it (a tournament table, a correction), as :func:`scoring.web.sheet.sheet_page`."""
    form, problems, error, place = initial or fresh_summary(game), Problems(), None, None
    extra = dict(extra or {})
    fixed = bool(extra.get("seats_fixed"))
    if request.method == "POST" or shown_again(request):
        form = read_summary(game, request.POST)
        more = request.POST.get("more", "")
        if shown_again(request):
            pass  # refused for its size: shown again, nothing stored
        elif more == "seat" and not fixed and len(form.seats) < SEATS[game][1]:
            form.seats.append("")
        elif more == "deal":
            form.deals.append(dict(BLANK_DEAL))
        else:
            built = summary_record(form)
            problems = built.problems
            done, error = save(request, header, built.record)
            if done:
                return done
            if error:
                place = summary_error_place(form, error)
    shown = place_messages(problems, error, place)
    seats = (len(form.seats), len(form.seats)) if fixed else None
    context = _summary_context(form, shown, seats)
    context.update(error_place=place, problem_count=len(problems.found), **extra)
    return entry_page(request, template, header, context, error)


def _summary_context(
    form: SummaryForm, shown: dict[str, str], seats: tuple[int, int] | None = None
) -> dict[str, Any]:
    low, high = seats or SEATS[form.game]
    context = seat_context(form.seats, low, high, shown, SEAT_NAMES.get(form.game, ()))
    game = Game.objects.filter(key=form.game).first()
    context.update(
        game=form.game,
        game_label=game.label if game else form.game,
        values=form.values,
        shown=shown,
    )
    build = _GAME_CONTEXT.get(form.game)
    if build is not None:
        context.update(build(form, shown, len(context["seats"])))
    return context


def _divisor(form: SummaryForm, shown: dict[str, str], seats: int) -> dict[str, Any]:
    deals = [
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
        for d, deal in enumerate(form.deals or [BLANK_DEAL])
    ]
    sets = [{"value": top, "divisor": DEFAULT_DIVISORS[top]} for top in SETS]
    return {"sets": sets, "deals": deals}


def _ninetka(form: SummaryForm, shown: dict[str, str], seats: int) -> dict[str, Any]:
    names = section_names()
    # as the board lies: row 10 on top, B2-D4 at the bottom left
    sections = [
        {"field": f"section-{s}", "name": names[s], "owner": form.values.get(f"section-{s}", "")}
        for top in (6, 3, 0)
        for s in range(top, top + 3)
    ]
    return {"sections": sections}


def _trimorp(form: SummaryForm, shown: dict[str, str], seats: int) -> dict[str, Any]:
    series = [
        {
            "seat": n,
            "counts": [(k, form.values.get(f"s{n}-{k}", "")) for k in (4, 3, 2)],
            "message": shown.get(f"series-{n}"),
        }
        for n in range(seats)
    ]
    return {"series": series}


def _dominyam(form: SummaryForm, shown: dict[str, str], seats: int) -> dict[str, Any]:
    values = form.values
    turn_points = [
        {"seat": n, "value": values.get(f"tp-{n}", ""), "message": shown.get(f"tp-{n}")}
        for n in range(seats)
    ]
    tiles = [
        {
            "field": f"tile-{a}-{b}",
            "name": f"{a}-{b}",
            "a": a,
            "b": b,
            "owner": values.get(f"tile-{a}-{b}", ""),
        }
        for a, b in TILES
    ]
    return {"turn_points": turn_points, "tiles": tiles}


_GAME_CONTEXT = {"divisor": _divisor, "9tka": _ninetka, "trimorp": _trimorp, "dominyam": _dominyam}


def _at(values: list[str], n: int) -> str:
    return values[n] if n < len(values) else ""
