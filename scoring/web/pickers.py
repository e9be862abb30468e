"""The players a seat of an entry form may pick (JSON, read by ``static/quotient``'s
picker as the organiser types)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from federation.models import Club, Player, search_key
from federation.permissions import can_write_for_club

PICKER_LIMIT = 30
QUERY_LENGTH = 40


@login_required
@require_GET
def entry_players(request: HttpRequest) -> JsonResponse:
    """Players a seat may pick: the club's (with their names, for its organisers),
    then any player whose handle or public name holds ``q``; whatever the case and
    accents ("chloe" finds "Chloé")."""
    club = Club.objects.filter(slug=request.GET.get("club", "")).first()
    query = request.GET.get("q", "").strip()[:QUERY_LENGTH]
    found: list[dict[str, str]] = []
    if club is not None and can_write_for_club(request.user, club):
        found = _own_players(club, query)
    if query and len(found) < PICKER_LIMIT:
        others = Player.objects.search(query)
        if club is not None:
            others = others.exclude(club=club)
        found += [
            {"handle": p.handle, "name": p.public_display_name}
            for p in others.order_by("handle")[: PICKER_LIMIT - len(found)]
        ]
    return JsonResponse({"players": found})


def _own_players(club: Club, query: str) -> list[dict[str, str]]:
    """The club's players, by handle or name (its organisers know every name)."""
    own = Player.objects.filter(club=club)
    if query:
        key = search_key(query)
        own = own.filter(Q(handle__icontains=key) | Q(search_name__contains=key))
    return [
        {"handle": p.handle, "name": p.display_name}
        for p in own.order_by("display_name")[:PICKER_LIMIT]
    ]
