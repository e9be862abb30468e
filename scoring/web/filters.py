"""The filters of the list of matches (``/matches/``): a form of game, club, player
and month, read from the query string, and the heading that names what is shown
("Divisor dominoes matches of Club X, March 2026").

A value that names nothing (an unknown game, club or handle, a month not written
``YYYY-MM``) is a message at its field and an empty list, never a 500 nor a silently
ignored filter."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.models import Club, Game, Player
from federation.months import parse_month


class MatchFilterForm(forms.Form):
    """The list's filters, all optional; the values are those of the URL (a game's
    key, a club's slug, a player's handle, ``YYYY-MM``)."""

    game = forms.ChoiceField(
        label=gettext_lazy("Game"),
        required=False,
        error_messages={"invalid_choice": gettext_lazy("There is no game “%(value)s”.")},
    )
    club = forms.ChoiceField(
        label=gettext_lazy("Club"),
        required=False,
        error_messages={"invalid_choice": gettext_lazy("There is no club “%(value)s”.")},
    )
    player = forms.CharField(
        label=gettext_lazy("Player (handle)"),
        required=False,
        max_length=40,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    month = forms.CharField(
        label=gettext_lazy("Month"),
        required=False,
        max_length=7,
        widget=forms.TextInput(attrs={"type": "month", "placeholder": "YYYY-MM"}),
    )

    def __init__(self, data: QueryDict, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        #: the games by key and the clubs' names by slug (the choices, and the heading's words)
        self.games = {game.key: game for game in Game.objects.all()}
        self.clubs = dict(Club.objects.order_by("name").values_list("slug", "name"))
        games = [(key, game.label) for key, game in self.games.items()]
        self.fields["game"].choices = [("", _("all games")), *games]  # type: ignore[attr-defined]
        clubs = [("", _("all clubs")), *self.clubs.items()]
        self.fields["club"].choices = clubs  # type: ignore[attr-defined]

    def clean_player(self) -> Player | None:
        handle = self.cleaned_data["player"].strip()
        if not handle:
            return None
        player = Player.objects.by_handle(handle).first()
        if player is None:
            raise forms.ValidationError(
                _("There is no player with the handle “%(handle)s”.") % {"handle": handle}
            )
        return player

    def clean_month(self) -> date | None:
        text = self.cleaned_data["month"].strip()
        if not text:
            return None
        month = parse_month(text)
        if month is None:
            raise forms.ValidationError(
                _("Give the month as YYYY-MM, for example 2026-03 (not “%(month)s”).")
                % {"month": text}
            )
        return month


@dataclass
class Filters:
    """What the list shows: the filters as ``match_list`` takes them, the heading
    naming them, and whether the query was understood."""

    form: MatchFilterForm
    valid: bool
    heading: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    active: bool = False


def read_filters(query: QueryDict) -> Filters:
    """The filters of ``query`` (the list's GET parameters)."""
    form = MatchFilterForm(query)
    if not form.is_valid():
        return Filters(form=form, valid=False, heading=_("Matches"))
    data = form.cleaned_data
    game = form.games.get(data["game"])
    club = form.clubs.get(data["club"])
    player: Player | None = data["player"]
    month: date | None = data["month"]
    kwargs = {
        "game": data["game"] or None,
        "club": data["club"] or None,
        "player": player.handle if player else None,
        "month": month,
    }
    active = any(value is not None for value in kwargs.values())
    heading = heading_of(game, club, player, month)
    return Filters(form=form, valid=True, heading=heading, kwargs=kwargs, active=active)


def heading_of(
    game: Game | None, club: str | None, player: Player | None, month: date | None
) -> str:
    """ "Divisor dominoes matches of Club X with N. D., March 2026": the list's heading,
    each filter in words (a player by their public name)."""
    text = _("%(game)s matches") % {"game": game.label} if game else _("Matches")
    if club:
        text = _("%(matches)s of %(club)s") % {"matches": text, "club": club}
    if player:
        text = _("%(matches)s with %(player)s") % {
            "matches": text,
            "player": player.public_display_name,
        }
    if month:
        text = _("%(matches)s, %(month)s") % {
            "matches": text,
            "month": date_format(month, "YEAR_MONTH_FORMAT"),
        }
    return text
