"""Server-rendered match pages and the organisers' forms (thin views).

The match page itself is served by ``quotient.views.match_detail``, which adds the
ranking lists the match counted in (scoring cannot read ratings); it calls
:func:`match_page` here for everything else, the correction and withdrawal forms
included.
"""

import functools
import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import InvalidPage
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from core.confirm import confirmed
from core.generations import MATCHES, PLAYERS, changed_at, generations
from core.http_cache import (
    SHORT,
    Validators,
    cached,
    canonical_redirect,
    finish,
    not_modified,
    page_parts,
    page_validators,
)
from core.pagination import keyset_page
from core.refusals import refused_onto
from federation.idempotency import once
from federation.models import Game
from federation.permissions import can_write_for_club
from scoring.models import Match, Status
from scoring.selectors import match_for_page, match_list
from scoring.services import match_correct, match_record, match_withdraw
from scoring.web.display import match_display
from scoring.web.disputes import match_disputes_context
from scoring.web.entry import GAMES as ENTRY_GAMES
from scoring.web.entry import answered, recorded_answer
from scoring.web.filters import read_filters
from scoring.web.forms import MatchCorrectForm, MatchSubmitForm, MatchWithdrawForm
from scoring.web.withdraw import withdraw_confirmation

#: what a page above scoring adds to the match page's context
Extra = Callable[[Match], dict[str, Any]]
#: the list's keys, each descending (the order of ``match_list``), and its page size
KEYS = ("played_on", "id")
PAGE_SIZE = 25
#: the query parameters the list reads (any other is redirected away)
LIST_READS = ("game", "club", "player", "month", "cursor", "page")


def match_index(request: HttpRequest) -> HttpResponseBase:
    """The list of matches, newest first, paged by keys: "older" and "newer" link
    cursors on ``(played_on, id)``, so any depth reads one index range and nothing
    counts the table; ``?page=N`` still answers (a page past the end shows the first).

    The list's part of the page is the same for every visitor (in one language): it is
    kept rendered until a match, a player or a club changes (the ``matches`` and
    ``players`` generations), for ``SHORT`` seconds at most, and a conditional GET is a
    304 from the cache alone, as for the ranking pages."""
    moved = canonical_redirect(request, LIST_READS)
    if moved is not None:
        return moved
    gens = generations(MATCHES, PLAYERS)
    parts = page_parts(request, html=True, reads=LIST_READS)
    content = Validators.of(
        ["match-page", gens[MATCHES], gens[PLAYERS], *parts],
        changed_at(gens[MATCHES], gens[PLAYERS]),
    )
    validators = page_validators(request, content)
    response = not_modified(request, validators)
    if response is None:
        status, heading, body = cached(content.key, lambda: _list_html(request), SHORT, by=request)
        context = {"body": mark_safe(body), "heading": heading}
        response = render(request, "scoring/match_list.html", context, status=status)
    vary = ["Accept-Language", "Cookie"]  # the page shows its visitor and a CSRF token
    return finish(response, validators, immutable=False, private=True, vary=vary)


def _list_html(request: HttpRequest) -> tuple[int, str, str]:
    """The list's part of its page (the filter form, a page of matches and the links
    to the others), its heading naming the filters, and its status: 400 for filters
    that name nothing (said at their field, no match listed)."""
    filters = read_filters(request.GET)
    context: dict[str, Any] = {"filters": filters, "matches": [], "filtered": filters.active}
    if filters.valid:
        matches = match_list(**filters.kwargs)
        try:
            page = keyset_page(matches, keys=KEYS, size=PAGE_SIZE, **_position(request.GET))
        except InvalidPage:
            page = keyset_page(matches, keys=KEYS, size=PAGE_SIZE)
        context.update(
            matches=page.object_list,
            older_url=_page_url(request, page.next),
            newer_url=_page_url(request, page.previous),
        )
    body = render_to_string("scoring/_match_list.html", context, request=request)
    return (200 if filters.valid else 400), filters.heading, body


def _position(params: Any) -> dict[str, str | None]:
    return {"cursor": params.get("cursor") or None, "page": params.get("page") or None}


def _page_url(request: HttpRequest, position: dict[str, str] | None) -> str | None:
    """The list's URL with its filters kept and ``position`` (a cursor or a page) in
    place of the current one; None for no page there."""
    if position is None:
        return None
    query = request.GET.copy()
    query.pop("cursor", None)
    query.pop("page", None)
    query.update(position)
    return f"?{query.urlencode()}" if query else request.path


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return match_page(request, pk)


def match_page(request: HttpRequest, pk: int, extra: Extra | None = None) -> HttpResponse:
    """The match page; its organisers correct or withdraw the match from it (POST
    ``action`` = ``correct`` or ``withdraw``). A refused correction is shown with the
    engine's error, the form as it was sent, and nothing changed."""
    match = get_object_or_404(match_for_page(), pk=pk)
    may_change = can_write_for_club(request.user, match.club)
    shown = {"version": match.version}  # the forms send back the version they showed
    # the record's text is written only if the form is shown (its organisers)
    record_text = functools.partial(_record_text, match)
    correct_form = MatchCorrectForm(initial={"record_text": record_text, **shown})
    withdraw_form, error = MatchWithdrawForm(initial=shown), None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not may_change or match.status == Status.WITHDRAWN:
            raise PermissionDenied
        form: forms.Form
        if request.POST.get("action") == "withdraw":
            if not confirmed(request):  # nothing irreversible without its confirmation
                return withdraw_confirmation(request, match)
            withdraw_form = MatchWithdrawForm(request.POST)
            form, change = withdraw_form, _withdraw
        else:
            correct_form = MatchCorrectForm(request.POST)
            form, change = correct_form, _correct
        if form.is_valid():
            with refused_onto() as refused:
                change(request, match, form.cleaned_data)
                return redirect("match-detail", pk=match.pk)
            error = refused.error
    context = _page_context(request, match)
    context.update(
        may_change=may_change and match.status != Status.WITHDRAWN,
        correct_form=correct_form,
        withdraw_form=withdraw_form,
        error=error,
        **(extra(match) if extra else {}),
    )
    bad = request.method == "POST"  # a valid POST redirected above
    return render(request, "scoring/match_detail.html", context, status=400 if bad else 200)


def _withdraw(request: HttpRequest, match: Match, data: dict[str, Any]) -> None:
    match_withdraw(match=match, reason=data["reason"], by=request.user, versions=_shown(data))
    messages.success(request, _("The match was withdrawn."))


def _shown(data: dict[str, Any]) -> set[int] | None:
    """The version the form was shown with (none from an older page: no check)."""
    return {data["version"]} if data.get("version") else None


def _correct(request: HttpRequest, match: Match, data: dict[str, Any]) -> None:
    match_correct(
        match=match,
        record=data["record"],
        reason=data["reason"],
        by=request.user,
        versions=_shown(data),
    )
    messages.success(request, _("The match was corrected."))


def _page_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    show_by = can_write_for_club(request.user, match.club)
    events = [
        {"event": event, "by": event.by.get_username() if show_by and event.by else ""}
        for event in match.events.all()  # prefetched, oldest first (match_for_page)
    ]
    return {
        "match": match,
        "events": events,
        **match_display(match),
        **match_disputes_context(request, match),
    }


def _record_text(match: Match) -> str:
    return json.dumps(match.record, indent=1, ensure_ascii=False)


@login_required
def match_submit(request: HttpRequest) -> HttpResponse:
    """Where an organiser enters a match: the guided forms of each game, the bulk
    import, and (below them) a full record pasted or uploaded, replayed and stored
    whole, or refused with the move."""
    form = MatchSubmitForm(request.POST or None, request.FILES or None, user=request.user)
    error = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with refused_onto(
            denied=_("You may only submit matches for a club you organise.")
        ) as refused:

            def record_it() -> dict[str, Any]:
                recorded = match_record(
                    club=data["club"],
                    played_on=data["played_on"],
                    record=data["record"],
                    submitted_by=request.user,
                    game_number=data["game_number"],
                )
                return recorded_answer(recorded.match.pk, recorded.warnings)

            answer, replayed = once(request, record_it)
            to = reverse("match-detail", args=[answer["match"]])
            return answered(request, answer, replayed, _("The match was recorded."), to)
        error = refused.error
    status = 400 if request.method == "POST" else 200
    games = {game.key: game.label for game in Game.objects.all()}
    entries = [(key, games.get(key, key)) for key in ENTRY_GAMES if key in games]
    context = {"form": form, "error": error, "games": entries}
    return render(request, "scoring/match_submit.html", context, status=status)
