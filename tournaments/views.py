"""Public tournament pages: list, overview, pairings, standings, crosstable, their
print views and CSV exports (thin views over ``selectors`` and ``pairing``).

A non-public tournament is a 404 for everyone but its club's organisers and the
federation admins; an unpublished round is shown to them only.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.params import whole_number
from scoring.web import paper
from tournaments import exports, pairing, selectors
from tournaments.models import Round, Tournament

SHEET_ROWS = 12


def _visible(request: HttpRequest, slug: str) -> tuple[Tournament, bool]:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    return tournament, selectors.can_manage(request.user, tournament)


def tournament_index(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournament_list(user=request.user)
    page = Paginator(tournaments, 25).get_page(request.GET.get("page"))
    return render(request, "tournaments/list.html", {"page": page})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, manager = _visible(request, slug)
    context = {
        "tournament": tournament,
        "manager": manager,
        "rounds": selectors.round_list(tournament, published_only=not manager),
        "registrations": selectors.registration_list(tournament),
    }
    return render(request, "tournaments/detail.html", context)


def _round_context(request: HttpRequest, slug: str, number: int) -> dict:
    tournament, manager = _visible(request, slug)
    rnd = selectors.round_get(tournament, number, manager=manager)
    return {"tournament": tournament, "manager": manager, "round": rnd}


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    context = _round_context(request, slug, number)
    context["rounds"] = selectors.round_list(
        context["tournament"], published_only=not context["manager"]
    )
    return render(request, "tournaments/round.html", context)


def round_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return render(request, "tournaments/print_pairings.html", _round_context(request, slug, number))


def round_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One score sheet per table: the players in seat order, empty rows to fill; a
    divisor sheet has the columns of the sheet form (player, ends sum, quotient, draw
    or pass, pips left), one row per turn."""
    context = _round_context(request, slug, number)
    context["rows"] = range(1, SHEET_ROWS + 1)
    context["divisor_rows"] = range(1, paper.ROWS + 1)
    return render(request, "tournaments/print_sheets.html", context)


def _after(request: HttpRequest) -> int | None:
    return whole_number(request.GET.get("after"), parameter="after", maximum=999)


def _standings_context(request: HttpRequest, slug: str) -> dict:
    tournament, manager = _visible(request, slug)
    complete = list(
        tournament.rounds.filter(status=Round.Status.COMPLETE).values_list("number", flat=True)
    )
    after = _after(request)
    if after and after not in complete:
        raise Http404(_("Round %(round)s is not complete.") % {"round": after})
    after, lines = pairing.standings_after(tournament, after)
    return {
        "tournament": tournament,
        "manager": manager,
        "after": after,
        "lines": lines,
        "complete": complete,
    }


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "tournaments/standings.html", _standings_context(request, slug))


def standings_print(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "tournaments/print_standings.html", _standings_context(request, slug))


def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, manager = _visible(request, slug)
    numbers, rows = pairing.crosstable(tournament)
    context = {"tournament": tournament, "manager": manager, "numbers": numbers, "rows": rows}
    return render(request, "tournaments/crosstable.html", context)


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _manager = _visible(request, slug)
    return _csv(exports.standings_csv(tournament, _after(request)), f"{slug}-standings.csv")


def crosstable_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _manager = _visible(request, slug)
    return _csv(exports.crosstable_csv(tournament), f"{slug}-crosstable.csv")
