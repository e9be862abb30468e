"""Forms of the webhook pages: register an endpoint, change it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club
from federation.permissions import is_federation_admin, organised_clubs
from hooks.events import EVENT_TYPES

#: the club field's value for the federation's endpoints
FEDERATION = "*"


class EndpointForm(forms.Form):
    url = forms.URLField(
        label=_("URL"),
        max_length=500,
        assume_scheme="https",
        help_text=_("Where the events are POSTed, e.g. https://example.org/quotient-hook."),
    )
    events = forms.MultipleChoiceField(
        label=_("Events"), choices=EVENT_TYPES, widget=forms.CheckboxSelectMultiple
    )
    description = forms.CharField(label=_("Description"), max_length=200, required=False)


class EndpointCreateForm(EndpointForm):
    club = forms.ChoiceField(label=_("Events of"))

    field_order = ["club", "url", "events", "description"]

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(club.slug, club.name) for club in organised_clubs(user)]
        if is_federation_admin(user):
            choices.insert(0, (FEDERATION, str(_("the whole federation (every club)"))))
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ChoiceField)
        club_field.choices = choices

    def clean_club(self) -> Club | None:
        slug = self.cleaned_data["club"]
        return None if slug == FEDERATION else Club.objects.get(slug=slug)


class EndpointEditForm(EndpointForm):
    active = forms.BooleanField(
        label=_("Active"),
        required=False,
        help_text=_("Enabled again, it is sent the events that waited, in order."),
    )
