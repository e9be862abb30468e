"""Forms of the organiser's pages; the services validate the rest (sizes per game...)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.dates import DateField
from core.params import digits
from federation.models import Club, Game
from federation.permissions import organised_clubs
from tournaments.models import Tournament
from tournaments.services import MAX_ROUNDS
from tournaments.services.registrations import parse_handles


def _apart_field() -> forms.CharField:
    return forms.CharField(
        label=_("Players to keep apart"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 40, "spellcheck": "false"}),
        help_text=_("One pair of handles a line, e.g. “ana ben” (family)."),
    )


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=80,
        required=False,
        help_text=_("Empty: made from the name."),
    )
    game = forms.ModelChoiceField(queryset=Game.objects.all(), label=_("Game"), to_field_name="key")
    club: forms.ModelChoiceField = forms.ModelChoiceField(
        queryset=Club.objects.none(), label=_("Club"), to_field_name="slug"
    )
    starts_on = DateField(label=_("Starts on"))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    table_sizes = forms.CharField(
        label=_("Table sizes"),
        max_length=40,
        help_text=_("Preferred size first, e.g. “4, 3” (Divisor), “2” (Astronomy)."),
    )
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned"), min_value=1, max_value=MAX_ROUNDS, initial=5
    )
    bye_points = forms.DecimalField(
        label=_("Bye points"),
        required=False,
        min_value=0,
        max_digits=6,
        decimal_places=2,
        help_text=_("Empty: 1 with tables of two, 1.5 otherwise."),
    )
    public = forms.BooleanField(label=_("Public pages"), required=False, initial=True)
    keep_clubs_apart = forms.BooleanField(label=_("Keep club-mates apart"), required=False)
    apart = _apart_field()

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = organised_clubs(user)

    def clean_table_sizes(self) -> list[int]:
        text = self.cleaned_data["table_sizes"]
        parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
        sizes = [digits(p, 99) for p in parts]  # ASCII digits: "²".isdigit() is true
        if not sizes or None in sizes:
            raise forms.ValidationError(_("Whole numbers separated by commas, e.g. 4, 3."))
        return [size for size in sizes if size is not None]


class HandlesForm(forms.Form):
    handles = forms.CharField(
        label=_("Player handles"),
        widget=forms.Textarea(attrs={"rows": 4, "cols": 40, "spellcheck": "false"}),
        help_text=_(
            "Paste handles: one a line, or separated by commas or spaces. All or none: "
            "when a handle is unknown nobody is registered, and the list stays here to be "
            "corrected."
        ),
        error_messages={"required": _("Paste at least one player handle.")},
    )
    check_in = forms.BooleanField(label=_("Check them in now"), required=False)


def unknown_lines(text: str, params: dict[str, Any]) -> list[str]:
    """The lines of a pasted list that name nobody (``unknown-handles``' handles)."""
    unknown = {h.strip().lower() for h in str(params.get("handles", "")).split(",")}
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        missing = [h for h in parse_handles(line) if h.lower() in unknown]
        if missing:
            found.append(
                gettext("Line %(line)s: no player has the handle %(handles)s.")
                % {"line": number, "handles": ", ".join(missing)}
            )
    return found


class HandleForm(forms.Form):
    handle = forms.CharField(label=_("Player handle"), max_length=40)


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(
        label=_("From round"),
        min_value=1,
        required=False,
        help_text=_("Empty: the next round to be published."),
    )


class CheckInForm(forms.Form):
    checked_in = forms.BooleanField(required=False)


class SwapForm(forms.Form):
    first = forms.ChoiceField(label=_("Player"))
    second = forms.ChoiceField(label=_("swaps with"))

    def __init__(self, *args: Any, handles: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(h, h) for h in handles]
        for name in ("first", "second"):
            cast(forms.ChoiceField, self.fields[name]).choices = choices


class ByeGrantForm(forms.Form):
    handle = forms.CharField(label=_("Late entrant"), max_length=40)


class ApartForm(forms.Form):
    """Who the pairing keeps apart, changed while the tournament runs."""

    keep_clubs_apart = forms.BooleanField(label=_("Keep club-mates apart"), required=False)
    apart = _apart_field()
