"""Pages of the federation app: an organiser registers a player of their club."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from federation.forms import PlayerRegisterForm
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
