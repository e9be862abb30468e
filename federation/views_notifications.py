"""Pages of the notification mails: the per-kind setting on *My player* and the
unsubscribe link of every mail (a signed token: no login needed)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from federation.forms import NotificationSettingForm
from federation.models import Notification, Player
from federation.notifications import KINDS, mute, setting_of, unsubscribe_read
from federation.players import player_of


def setting_form(player: Player | None) -> NotificationSettingForm | None:
    """The form of *My player*, filled with the player's setting (None without one)."""
    if player is None:
        return None
    found = setting_of(player)
    wanted = [kind for kind in KINDS if kind not in found.muted]
    return NotificationSettingForm(initial={"kinds": wanted, "language": found.language})


@login_required
@require_POST
def notification_settings(request: HttpRequest) -> HttpResponse:
    """``POST /account/notifications/``: save the kinds wanted and the language."""
    player = player_of(request.user)
    form = NotificationSettingForm(request.POST)
    if player is not None and form.is_valid():
        found = setting_of(player)
        wanted = set(form.cleaned_data["kinds"])
        found.muted = [kind for kind in KINDS if kind not in wanted]
        found.language = form.cleaned_data["language"]
        found.save(update_fields=["muted", "language"])
        messages.success(request, _("Your mail settings are saved."))
    return redirect("player-claim")


@csrf_exempt  # the signed token is the authority (and mail clients' one-click POST)
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """``/account/notifications/unsubscribe/<token>/``: GET asks, POST stops the mails
    of the token's kind to the token's player."""
    found = unsubscribe_read(token)
    if found is None:
        return render(request, "federation/unsubscribe.html", {"invalid": True}, status=410)
    player, kind = found
    done = request.method == "POST"
    if done:
        mute(player, kind)
    context = {"kind": Notification.Kind(kind).label, "done": done}
    return render(request, "federation/unsubscribe.html", context)
