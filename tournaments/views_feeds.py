"""Calendar feeds (``tournaments.calendar``): every public tournament, a club's, one
tournament's, and a player's private feed at a secret address; the page where a club's
organisers find (or renew) a player's address.

The public feeds are the same for everyone (shared caches may keep them a few
minutes); a private tournament is a 404 as on its pages. A player's feed is only ever
known by its address.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.site import absolute_url
from federation.models import Club, Player
from federation.permissions import can_write_for_club, is_federation_admin
from tournaments import calendar, selectors
from tournaments.models import PlayerCalendar, Tournament, calendar_token

#: how far back the federation's feed goes (calendars keep what they already have)
KEPT_DAYS = 366


def _ics(body: bytes, filename: str, *, private: bool = False) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    if private:
        patch_cache_control(response, private=True, max_age=300)
    else:
        patch_cache_control(response, public=True, max_age=300)
    return response


def _recent(tournaments):
    since = timezone.localdate() - timedelta(days=KEPT_DAYS)
    return tournaments.filter(public=True, starts_on__gte=since).order_by("starts_on", "pk")


def tournaments_ics(request: HttpRequest) -> HttpResponse:
    """``/tournaments.ics``: every public tournament of the last year and to come."""
    body = calendar.tournaments_feed(_("Quotient tournaments"), _recent(Tournament.objects))
    return _ics(body, "tournaments.ics")


def club_ics(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    body = calendar.tournaments_feed(club.name, _recent(club.tournaments))
    return _ics(body, f"{club.slug}.ics")


def tournament_ics(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    body = calendar.tournaments_feed(tournament.name, Tournament.objects.filter(pk=tournament.pk))
    return _ics(body, f"{tournament.slug}.ics", private=not tournament.public)


def player_ics(request: HttpRequest, token: str) -> HttpResponse:
    found = get_object_or_404(PlayerCalendar.objects.select_related("player"), token=token)
    return _ics(calendar.player_feed(found.player), "rounds.ics", private=True)


def _player_for_organiser(request: HttpRequest, handle: str) -> Player:
    player = get_object_or_404(Player.objects.select_related("club").by_handle(handle))
    allowed = can_write_for_club(request.user, player.club) if player.club else False
    if not (allowed or is_federation_admin(request.user)):
        raise PermissionDenied
    return player


@login_required
def player_calendar(request: HttpRequest, handle: str) -> HttpResponse:
    """The player's private feed address, for their club's organisers to hand over."""
    player = _player_for_organiser(request, handle)
    found, _created = PlayerCalendar.objects.get_or_create(player=player)
    url = absolute_url("player-calendar-feed", found.token)
    return render(request, "tournaments/player_calendar.html", {"player": player, "url": url})


@login_required
@require_POST
def player_calendar_renew(request: HttpRequest, handle: str) -> HttpResponse:
    """A new address; the old one stops working (a feed given to the wrong person)."""
    player = _player_for_organiser(request, handle)
    PlayerCalendar.objects.update_or_create(player=player, defaults={"token": calendar_token()})
    messages.success(request, _("The calendar has a new address; the old one no longer works."))
    return redirect("player-calendar", handle=player.handle)
