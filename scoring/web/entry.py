"""What the organisers' guided entry forms share (the forms themselves are thin views
in ``views_sheet``, ``views_summary`` and ``views_pickers``).

* ``/matches/enter/divisor/sheet/`` — the divisor score sheet, row by row;
* ``/matches/enter/<game>/`` — the summary form of any game;
* ``/matches/enter/players/`` — the players a seat may pick (JSON, for the forms).

Every form keeps what was typed when something is refused: the problem or the
engine's error is shown where it belongs (``scoring.entry``'s *places*) and nothing
is stored. A form sent with an ``Idempotency-Key`` (``federation.idempotency.once``:
the hidden field the forms' script fills, or the header of a copy queued offline) is
recorded once; sent again it answers the same match. A form posted with ``more``
(the no-script way to add a row, a deal or a seat) is shown again with room for it,
and stores nothing either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from core.errors import localized, warning
from core.refusals import refused_onto
from federation.idempotency import HEADER, once
from federation.models import Player
from federation.permissions import organised_clubs
from scoring.entry.fields import Problems, shown_seats
from scoring.services import match_record
from scoring.web.forms import MatchHeaderForm, problem_text

#: the games with a summary form, in the order the entry page lists them
GAMES = ("divisor", "astronomy", "9tka", "trimorp", "dominyam")
#: players listed for a seat's picker before the organiser types
CLUB_PLAYERS_LIMIT = 500

#: what stores a guided form's record (``store`` for a club match; a tournament
#: table and a correction bring their own): the page to go to, or the refusal
Saver = Callable[
    [HttpRequest, MatchHeaderForm, dict[str, Any] | None],
    tuple[HttpResponse | None, dict[str, Any] | None],
]


def store(
    request: HttpRequest, header: MatchHeaderForm, record: dict[str, Any] | None
) -> tuple[HttpResponse | None, dict[str, Any] | None]:
    """Record the match of a valid form: the redirect to its page, or the refusal."""
    if record is None or not header.is_valid():
        return None, None
    data = header.cleaned_data
    with refused_onto(denied=_("You may only submit matches for a club you organise.")) as refused:

        def record_it() -> dict[str, Any]:
            recorded = match_record(
                club=data["club"],
                played_on=data["played_on"],
                record=record,
                submitted_by=request.user,
                game_number=data["game_number"],
            )
            return recorded_answer(recorded.match.pk, recorded.warnings)

        answer, replayed = once(request, record_it)
        to = reverse("match-detail", args=[answer["match"]])
        return answered(request, answer, replayed, _("The match was recorded."), to), None
    return None, refused.error


def recorded_answer(match: int, warnings: Sequence[Any]) -> dict[str, Any]:
    """What a recorded form keeps under its key: the match and the warnings' codes."""
    return {"match": match, "warnings": [[code, params] for code, params in warnings]}


def answered(
    request: HttpRequest, answer: dict[str, Any], replayed: bool, recorded: str, to: str
) -> HttpResponse:
    """The answer to a recorded form: a redirect to ``to`` with the page's messages; to
    a copy sent from the device's queue (the ``Idempotency-Key`` header), the outcome
    as JSON (``stored`` or ``duplicate``, the match and its page)."""
    shown = [warning(code, **params)["message"] for code, params in answer.get("warnings", [])]
    again = _("This form had already been sent: the match was recorded once, here it is.")
    if request.headers.get(HEADER):
        body = {
            "outcome": "duplicate" if replayed else "stored",
            "match": answer["match"],
            "url": request.build_absolute_uri(to),
            "message": again if replayed else recorded,
            "warnings": [] if replayed else shown,
        }
        return JsonResponse(body, status=200 if replayed else 201)
    if replayed:
        messages.info(request, again)
    else:
        for text in shown:
            messages.warning(request, text)
        messages.success(request, recorded)
    return redirect(to)


def place_messages(
    problems: Problems, error: dict[str, Any] | None, place: str | None
) -> dict[str, str]:
    """The words to show at each place: the form's problems, then the refusal's."""
    found = {where: problem_text(code, params) for where, (code, params) in problems.found.items()}
    if error and place and error.get("code"):
        params = error.get("params") or {}
        found.setdefault(place, localized(error["code"], None, params, public=True))
    return found


def seat_context(
    seats: list[str], low: int, high: int, shown: dict[str, str], names: Sequence[Any] = ()
) -> dict[str, Any]:
    """The seats block of a form: each seat's player, label and problem."""
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
    players = Player.objects.filter(club=club).order_by("display_name")[:CLUB_PLAYERS_LIMIT]
    return [{"handle": p.handle, "name": p.display_name} for p in players]


def entry_page(
    request: HttpRequest,
    template: str,
    header: MatchHeaderForm,
    context: dict[str, Any],
    error: dict[str, Any] | None,
) -> HttpResponse:
    """An entry form's page: 400 when a post was refused, 200 otherwise."""
    more_forms = [form for form in context.get("more_forms", ()) if form.is_bound]
    context.update(
        header=header,
        error=error,
        form_problems=bool(context.pop("problem_count", 0))
        or bool(header.errors)
        or any(form.errors for form in more_forms),
        club_players=_club_players(request, header),
        top_message=error.get("message") if error else None,
    )
    status = 400 if request.method == "POST" and not request.POST.get("more") else 200
    return render(request, template, context, status=status)
