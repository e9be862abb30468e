"""The correction of a match through the form it can be written in (a thin view).

``/matches/<id>/correct/`` shows the stored record in its form — the divisor score
sheet for a sheet-checked match, the game's summary form for a summary — or, for a
record no form holds (a full move-by-move record), the JSON editor
(``?form=record`` asks for the JSON editor whatever the record). A reason is
required. The page is the club form's (``sheet_page``, ``summary_page``) with the
match's club, date and game number shown but fixed (a correction keeps them), and
``match_correct`` in place of ``match_record``: history, rights, the duplicate check
and every refusal as for the API's ``correct``; a refusal is shown on the form with
everything typed kept.
"""

from __future__ import annotations

import json
import re
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.refusals import refused_onto
from federation.models import Club
from federation.permissions import can_write_for_club
from scoring.entry.prefill import sheet_of, summary_of
from scoring.models import Match, Status
from scoring.services import match_correct
from scoring.web.entry import GAMES, Saver
from scoring.web.forms import MatchCorrectForm, MatchHeaderForm
from scoring.web.sheet import sheet_page
from scoring.web.summary import summary_page

SHEET_FIELD = re.compile(r"^d\d{1,3}-r\d{1,4}-")
SUMMARY_FIELD = re.compile(r"^d\d{1,3}-(points-\d|blocked)$")


class CorrectionReasonForm(forms.Form):
    """Why the match is corrected (kept in its history)."""

    reason = forms.CharField(
        label=gettext_lazy("Reason for the correction"),
        max_length=1000,
        help_text=gettext_lazy("Kept in the match's history, e.g. “deal 2: pips of Ana misread”."),
    )


def _family(match: Match, request: HttpRequest) -> tuple[str, Any]:
    """The form the correction is written in: ``sheet``, ``summary`` or ``record``
    (JSON), and the stored record written into it."""
    posted = request.POST if request.method == "POST" else {}
    if request.GET.get("form") == "record" or "record_text" in posted:
        return "record", None
    if match.game.key not in GAMES:
        return "record", None
    sheet, summary = sheet_of(match.record), summary_of(match.record)
    if posted and match.game.key == "divisor":
        if any(SHEET_FIELD.match(name) for name in posted):
            return "sheet", sheet
        if any(SUMMARY_FIELD.match(name) for name in posted):
            return "summary", summary
    if sheet is not None:
        return "sheet", sheet
    if summary is not None:
        return "summary", summary
    return "record", None


@login_required
def match_correct_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a match through its form (or its record as JSON), with a reason."""
    match = get_object_or_404(Match.objects.select_related("club", "game"), pk=pk)
    if not can_write_for_club(request.user, match.club) or match.status == Status.WITHDRAWN:
        raise PermissionDenied
    which, initial = _family(match, request)
    if which == "record":
        return _record_page(request, match)
    header = _fixed_header(request, match)
    reason = CorrectionReasonForm(request.POST or None)
    extra = {"match": match, "reason_form": reason, "more_forms": [reason], "which": which}
    save = _correction_saver(match, reason)
    if which == "sheet":
        return sheet_page(
            request,
            header,
            save=save,
            initial=initial,
            template="scoring/correct_sheet.html",
            extra=extra,
        )
    return summary_page(
        request,
        match.game.key,
        header,
        save=save,
        initial=initial,
        template="scoring/correct_summary.html",
        extra=extra,
    )


def _fixed_header(request: HttpRequest, match: Match) -> MatchHeaderForm:
    """The match's club, date and game number, shown and not changed."""
    initial = {
        "club": match.club.slug,
        "played_on": match.played_on.isoformat(),  # as a date input holds it
        "game_number": match.game_number,
    }
    header = MatchHeaderForm(request.POST or None, user=request.user, initial=initial)
    cast(forms.ModelChoiceField, header.fields["club"]).queryset = Club.objects.filter(
        pk=match.club_id
    )
    for field in header.fields.values():
        field.disabled = True
    return header


def _correction_saver(match: Match, reason: CorrectionReasonForm) -> Saver:
    def save(
        request: HttpRequest, header: MatchHeaderForm, record: dict[str, Any] | None
    ) -> tuple[HttpResponse | None, dict[str, Any] | None]:
        if record is None or not reason.is_valid():
            return None, None
        return _correct(request, match, record, reason.cleaned_data["reason"])

    return save


def _correct(
    request: HttpRequest, match: Match, record: Any, reason: str
) -> tuple[HttpResponse | None, dict[str, Any] | None]:
    """The next version of ``match`` through the correction service: its page, or the
    refusal (shown on the form, nothing changed)."""
    denied = _("You may only correct the matches of a club you organise.")
    with refused_onto(denied=denied) as refused:
        match_correct(match=match, record=record, reason=reason, by=request.user)
        messages.success(request, _("The match was corrected."))
        return redirect("match-detail", pk=match.pk), None
    return None, refused.error


def _record_page(request: HttpRequest, match: Match) -> HttpResponse:
    """The JSON editor: the stored record, to correct as a whole."""
    text = json.dumps(match.record, indent=1, ensure_ascii=False)
    form = MatchCorrectForm(request.POST or None, initial={"record_text": text})
    error = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        done, error = _correct(request, match, data["record"], data["reason"])
        if done is not None:
            return done
    guided = sheet_of(match.record) is not None or summary_of(match.record) is not None
    context = {"match": match, "form": form, "error": error, "guided": guided}
    status = 400 if request.method == "POST" else 200
    return render(request, "scoring/correct_record.html", context, status=status)
