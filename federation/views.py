"""Pages of the federation app: the player search, and an organiser registers a player
of their club."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from federation.forms import PlayerRegisterForm
from federation.models import Player
from federation.permissions import organised_clubs
from federation.services import player_create


@login_required
def player_register(request: HttpRequest) -> HttpResponse:
    if not organised_clubs(request.user).exists():
        raise PermissionDenied
    form = PlayerRegisterForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            player = player_create(**form.cleaned_data, created_by=request.user)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": player.display_name})
            return redirect("player-detail", handle=player.handle)
    return render(request, "federation/player_register.html", {"form": form})


#: longer queries are cut: no name is that long, and a search stays cheap
QUERY_LENGTH = 100


def player_search(request: HttpRequest) -> HttpResponse:
    """``/players/?q=``: players by handle, or by name where they consented, whatever
    the case and accents ("chloe" finds "Chloé"); every player, by handle, without a
    query."""
    query = request.GET.get("q", "").strip()[:QUERY_LENGTH]
    players = Player.objects.select_related("club").order_by("handle")
    if query:
        players = players.search(query)
    page = Paginator(players, 50).get_page(request.GET.get("page"))
    return render(request, "federation/player_search.html", {"query": query, "page": page})
