"""A table's result, through the game's guided form (a thin view).

``/tournaments/<slug>/rounds/<n>/tables/<t>/result/`` shows the form a club match of
the game is entered with — the divisor score sheet (``?form=summary``: the per-deal
summary form), the summary form of the other games — with the table's players in
seat order (they cannot change), the tournament's club, the round's day and the
tournament's rules filled in; ``?form=record`` is the advanced way, a full record
as JSON. The posted fields are those of ``/matches/enter/divisor/sheet/`` and
``/matches/enter/<game>/``; the page is scoring's (``sheet_page``, ``summary_page``)
with :func:`_table_saver` in place of the club's ``store``: the match is stored by
``table_result_record`` (``match_record``'s replay, duplicate check and history),
linked to the table, and the organiser lands on the round's page.

The rules filled in are those of the tournament's latest table result (a tournament
has no rules setting of its own: its first table takes the form's defaults, the
next ones what the first was played with).
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.forms import ModelChoiceField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from core.refusals import refused_onto
from federation.idempotency import once
from federation.models import Club
from scoring.entry.prefill import sheet_for, summary_for
from scoring.web.entry import GAMES, Saver, answered, recorded_answer
from scoring.web.forms import MatchHeaderForm, MatchSubmitForm
from scoring.web.sheet import sheet_page
from scoring.web.summary import summary_page
from tournaments import selectors, services
from tournaments.models import Table, Tournament
from tournaments.views_manage import _managed

#: the forms of a table's page: ``?form=`` (or what the posted fields say)
FORMS = ("sheet", "summary", "record")
SUMMARY_FIELD = re.compile(r"^d\d{1,3}-(points-\d|blocked)$")


def _which(request: HttpRequest, game: str) -> str:
    """The form asked for: ``?form=``, else the one the posted fields belong to, else
    the game's first (the divisor's score sheet)."""
    asked = request.GET.get("form", "")
    if request.method == "POST":
        if "record_text" in request.POST or "record_file" in request.FILES:
            return "record"
        summary = any(SUMMARY_FIELD.match(name) for name in request.POST)
        if game == "divisor" and asked != "sheet" and summary:
            return "summary"
    if asked in FORMS and (asked != "sheet" or game == "divisor"):
        return asked
    return "sheet" if game == "divisor" else "summary"


@login_required
def table_result(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Enter a table's match through the game's guided form (or, advanced, a record)."""
    tournament = _managed(request, slug)
    found = selectors.table_get(tournament, number, table)
    game = tournament.game.key
    which = _which(request, game)
    if which == "record" or game not in GAMES:
        return _record_page(request, tournament, found)
    extra = {"seats_fixed": _("The table's players, in seat order.")}
    templates = ("tournaments/table_result_sheet.html", "tournaments/table_result_summary.html")
    return table_form_page(request, found, which, _table_saver(found), templates, extra)


def table_form_page(
    request: HttpRequest,
    found: Table,
    which: str,
    save: Saver,
    templates: tuple[str, str],
    extra: dict[str, Any],
) -> HttpResponse:
    """A table's guided form (``which``: "sheet" or "summary"; ``templates``: the sheet's
    and the summary's), filled in for the table: its players in seat order, the
    tournament's club, the round's day and the tournament's latest rules; ``save``
    stores what it builds (the organiser's result, a player's report)."""
    tournament = found.round.tournament
    game = tournament.game.key
    # the date as a date input holds it (YYYY-MM-DD), whatever the language
    day = selectors.round_day(found.round).isoformat()
    initial = {"club": tournament.club.slug, "played_on": day}
    header = MatchHeaderForm(request.POST or None, user=request.user, initial=initial)
    _only_club(header, tournament)
    handles = [seat.player.handle for seat in found.seats.all()]
    rules = selectors.latest_rules(tournament)
    extra = {"tournament": tournament, "table": found, "which": which, **extra}
    if which == "sheet":
        initial_sheet = sheet_for(handles, rules)
        return sheet_page(
            request, header, save=save, initial=initial_sheet, template=templates[0], extra=extra
        )
    initial_form = summary_for(game, handles, rules)
    return summary_page(
        request, game, header, save=save, initial=initial_form, template=templates[1], extra=extra
    )


def _only_club(form: MatchHeaderForm | MatchSubmitForm, tournament: Tournament) -> None:
    club_field = cast(ModelChoiceField, form.fields["club"])
    club_field.queryset = Club.objects.filter(pk=tournament.club_id)


def _table_saver(found: Table) -> Saver:
    """Store the form's record as the table's match (the club form's ``store``, with
    ``table_result_record`` in place of ``match_record``)."""

    def save(
        request: HttpRequest, header: MatchHeaderForm, record: dict[str, Any] | None
    ) -> tuple[HttpResponse | None, dict[str, Any] | None]:
        if record is None or not header.is_valid():
            return None, None
        data = header.cleaned_data
        return _record(request, found, record, data["played_on"], data["game_number"])

    return save


def _record(
    request: HttpRequest, found: Table, record: Any, played_on: date, game_number: int
) -> tuple[HttpResponse | None, dict[str, Any] | None]:
    """Record ``record`` as ``found``'s match: the round's page, or the refusal."""
    denied = _("You may only submit matches for a club you organise.")
    with refused_onto(denied=denied) as refused:

        def record_it() -> dict[str, Any]:
            recorded = services.table_result_record(
                table=found,
                played_on=played_on,
                record=record,
                submitted_by=request.user,
                game_number=game_number or 1,
            )
            return recorded_answer(recorded.match.pk, recorded.warnings)

        answer, replayed = once(request, record_it)  # a copy sent again: the same match
        done = _("The result of table %(table)s is recorded.") % {"table": found.number}
        slug = found.round.tournament.slug
        to = reverse("tournament-round", kwargs={"slug": slug, "number": found.round.number})
        return answered(request, answer, replayed, done, to), None
    return None, refused.error


def _skeleton(tournament: Tournament, table: Table) -> str:
    handles = [seat.player.handle for seat in table.seats.all()]
    return json.dumps(
        {"game": tournament.game.key, "players": handles}, indent=2, ensure_ascii=False
    )


def _record_page(request: HttpRequest, tournament: Tournament, found: Table) -> HttpResponse:
    """The advanced way: a full record (JSON, pasted or a file), the table's players
    in seat order pre-filled; a bad record is explained and the form keeps its text."""
    initial = {
        "club": tournament.club.slug,
        "played_on": selectors.round_day(found.round),
        "record_text": _skeleton(tournament, found),
    }
    form = MatchSubmitForm(
        request.POST or None, request.FILES or None, user=request.user, initial=initial
    )
    _only_club(form, tournament)
    error = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        done, error = _record(
            request, found, data["record"], data["played_on"], data["game_number"]
        )
        if done is not None:
            return done
    context = {
        "tournament": tournament,
        "table": found,
        "form": form,
        "error": error,
        "guided": tournament.game.key in GAMES,
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/table_result.html", context, status=status)
