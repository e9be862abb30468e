"""The organiser's pages: create a tournament, then run it from one manage page
(register, check in, pair, swap, publish, withdraw, late entries) and enter each
table's result through the game's guided form (``views_results``).

Every action is a POST that calls one service and comes back to the manage page with
a message; a refusal (``TournamentError``) is shown, nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.forms import Form
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.refusals import refused_onto
from federation.models import Player
from tournaments import pairing, selectors, services
from tournaments.errors import TournamentError
from tournaments.forms import (
    ApartForm,
    ByeGrantForm,
    CheckInForm,
    HandleForm,
    HandlesForm,
    SwapForm,
    TournamentForm,
    WithdrawForm,
    unknown_lines,
)
from tournaments.models import (
    DEFAULT_TABLE_SIZES,
    Registration,
    Round,
    RoundBye,
    Tournament,
)
from tournaments.services.reports import disputed_tables

#: refusals shown at the form field they are about
APART_FIELDS = {"apart-pair": "apart", "apart-unknown": "apart"}
HANDLES_FIELDS = {"unknown-handles": "handles", "no-handles": "handles"}


def _managed(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    if not selectors.can_manage(request.user, tournament):
        raise PermissionDenied
    return tournament


def _act(request: HttpRequest, tournament: Tournament, action: Callable[[], str]) -> HttpResponse:
    """Run one service call; its message (or its refusal) on the manage page."""
    with refused_onto(request=request):
        messages.success(request, action())
    return redirect("tournament-manage", slug=tournament.slug)


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    initial = {"table_sizes": "4, 3", "starts_on": timezone.localdate()}
    form = TournamentForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with refused_onto(form, fields=APART_FIELDS):
            tournament = services.tournament_create(
                **{k: v for k, v in data.items() if k != "slug"},
                slug=data["slug"] or None,
                created_by=request.user,
            )
            messages.success(request, _("The tournament was created: register its players."))
            return redirect("tournament-manage", slug=tournament.slug)
    context = {"form": form, "default_sizes": DEFAULT_TABLE_SIZES}
    return render(request, "tournaments/create.html", context, status=400 if form.errors else 200)


@login_required
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    return _manage_page(request, _managed(request, slug))


def _manage_page(
    request: HttpRequest, tournament: Tournament, *, status: int = 200, **forms: Form
) -> HttpResponse:
    """The manage page; ``forms`` replace its blank forms (a refused one, as typed)."""
    registrations = list(selectors.registration_list(tournament))
    rounds = list(selectors.round_list(tournament))
    current = selectors.round_get(tournament, rounds[-1].number, manager=True) if rounds else None
    context: dict[str, Any] = {
        "tournament": tournament,
        "registrations": registrations,
        "rounds": rounds,
        "current": current,
        "query": request.GET.get("q", ""),
        "found": selectors.player_search(request.GET.get("q", "")),
        "handles_form": HandlesForm(),
        "late_form": HandleForm(),
        "started": any(r.is_published for r in rounds),
        "checked_in_count": sum(r.checked_in for r in registrations),
        "missed": _missed_rounds(tournament, registrations),
        "apart_form": _apart_form(tournament),
        **forms,
    }
    if current is not None and not current.is_published:
        handles = [s.player.handle for t in current.tables.all() for s in t.seats.all()]
        handles += [b.player.handle for b in current.byes.all()]
        context["swap_form"] = SwapForm(handles=sorted(handles, key=str.lower))
        context["warnings"] = pairing.round_warnings(current)
    if current is not None and current.is_published:
        context["disputes"] = disputed_tables(current.tables.all())
    return render(request, "tournaments/manage.html", context, status=status)


def _apart_form(tournament: Tournament) -> ApartForm:
    pairs = "\n".join(f"{a} {b}" for a, b in selectors.apart_handles(tournament))
    return ApartForm(initial={"keep_clubs_apart": tournament.keep_clubs_apart, "apart": pairs})


@login_required
@require_POST
def tournament_apart(request: HttpRequest, slug: str) -> HttpResponse:
    """Who the pairing keeps apart: club-mates (or not) and the pairs named; a refused
    list is shown again as typed."""
    tournament = _managed(request, slug)
    form = ApartForm(request.POST)
    if form.is_valid():
        with refused_onto(form, fields=APART_FIELDS):
            services.tournament_apart_set(
                tournament=tournament, **form.cleaned_data, by=request.user
            )
            messages.success(
                request, _("The pairing keeps these players apart from the next round on.")
            )
            return redirect("tournament-manage", slug=slug)
    return _manage_page(request, tournament, status=400, apart_form=form)


def _missed_rounds(
    tournament: Tournament, registrations: list[Registration]
) -> list[tuple[Registration, int, bool]]:
    """Each late entrant's missed rounds, and whether a bye was granted for it."""
    granted = set(
        RoundBye.objects.filter(round__tournament=tournament, granted=True).values_list(
            "round__number", "player_id"
        )
    )
    return [
        (reg, number, (number, reg.player_id) in granted)
        for reg in registrations
        for number in range(1, reg.joins_round)
    ]


@login_required
def event_json(request: HttpRequest, slug: str) -> JsonResponse:
    """The event the engine would pair the next round from (for ``python -m tournaments``)."""
    tournament = _managed(request, slug)
    number = (
        tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    ) + 1
    loaded = pairing.event_for(tournament, next_round=number)
    return JsonResponse(loaded.event, json_dumps_params={"ensure_ascii": False, "indent": 2})


@login_required
@require_POST
def registrations_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Register a pasted list, all or none: a list with unknown handles registers
    nobody and is shown again as typed, with the lines that name nobody."""
    tournament = _managed(request, slug)
    form = HandlesForm(request.POST)
    if form.is_valid():
        pasted = form.cleaned_data["handles"]
        with refused_onto(form, fields=HANDLES_FIELDS) as refused:
            added = services.registrations_add(
                tournament=tournament,
                handles=pasted,
                check_in=form.cleaned_data["check_in"],
                by=request.user,
            )
            messages.success(request, _("%(count)s players registered.") % {"count": len(added)})
            return redirect("tournament-manage", slug=slug)
        if refused.exception is not None and refused.exception.code == "unknown-handles":
            for line in unknown_lines(pasted, refused.exception.params):
                form.add_error("handles", line)
    return _manage_page(request, tournament, status=400, handles_form=form)


@login_required
@require_POST
def registration_check_in(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _managed(request, slug)
    reg = get_object_or_404(Registration, pk=pk, tournament=tournament)
    form = CheckInForm(request.POST)
    checked_in = form.is_valid() and form.cleaned_data["checked_in"]

    def check_in() -> str:
        services.registration_check_in(registration=reg, checked_in=checked_in, by=request.user)
        if checked_in:
            return _("%(player)s is checked in.") % {"player": reg.player.handle}
        return _("%(player)s is no longer checked in.") % {"player": reg.player.handle}

    return _act(request, tournament, check_in)


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _managed(request, slug)
    reg = get_object_or_404(Registration, pk=pk, tournament=tournament)
    form = WithdrawForm(request.POST)
    from_round = form.cleaned_data["from_round"] if form.is_valid() else None

    def withdraw() -> str:
        done = services.registration_withdraw(
            registration=reg, from_round=from_round, by=request.user
        )
        return _("%(player)s withdraws from round %(round)s on.") % {
            "player": reg.player.handle,
            "round": done.withdrawn_from_round,
        }

    return _act(request, tournament, withdraw)


def _player(handle: str) -> Player:
    player = Player.objects.by_handle(handle.strip()).first()
    if player is None:
        raise TournamentError("unknown-handles", handles=handle.strip())
    return player


@login_required
@require_POST
def registration_add_late(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _managed(request, slug)
    form = HandleForm(request.POST)
    if form.is_valid():
        with refused_onto(form, fields=HANDLES_FIELDS | {"unknown-handles": "handle"}):
            reg = services.registration_add_late(
                tournament=tournament, player=_player(form.cleaned_data["handle"]), by=request.user
            )
            messages.success(
                request,
                _("%(player)s joins at round %(round)s.")
                % {"player": reg.player.handle, "round": reg.joins_round},
            )
            return redirect("tournament-manage", slug=slug)
    return _manage_page(request, tournament, status=400, late_form=form)


@login_required
@require_POST
def round_pair(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _managed(request, slug)

    def pair() -> str:
        rnd = services.round_pair(tournament=tournament, by=request.user)
        return _("Round %(round)s is paired: check it, then publish it.") % {"round": rnd.number}

    return _act(request, tournament, pair)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )


@login_required
@require_POST
def round_repair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _managed(request, slug)
    rnd = _round(tournament, number)

    def repair() -> str:
        services.round_repair(round=rnd, by=request.user)
        return _("Round %(round)s was paired again.") % {"round": number}

    return _act(request, tournament, repair)


@login_required
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _managed(request, slug)
    rnd = _round(tournament, number)
    handles = [request.POST.get("first", ""), request.POST.get("second", "")]
    form = SwapForm(request.POST, handles=handles)

    def swap() -> str:
        if not form.is_valid():
            raise TournamentError("swap-same")
        first, second = (_player(form.cleaned_data[k]) for k in ("first", "second"))
        for warned in services.round_swap(round=rnd, first=first, second=second, by=request.user):
            messages.warning(request, warned.message)
        return _("%(first)s and %(second)s swapped places.") % {
            "first": first.handle,
            "second": second.handle,
        }

    return _act(request, tournament, swap)


@login_required
@require_POST
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _managed(request, slug)
    rnd = _round(tournament, number)

    def publish() -> str:
        services.round_publish(round=rnd, by=request.user)
        return _("Round %(round)s is published.") % {"round": number}

    return _act(request, tournament, publish)


@login_required
@require_POST
def round_bye_grant(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _managed(request, slug)
    rnd = _round(tournament, number)
    form = ByeGrantForm(request.POST)
    handle = form.cleaned_data["handle"] if form.is_valid() else ""

    def grant() -> str:
        bye = services.round_bye_grant(round=rnd, player=_player(handle), by=request.user)
        return _("%(player)s has a bye in round %(round)s.") % {
            "player": bye.player.handle,
            "round": number,
        }

    return _act(request, tournament, grant)
