"""Forms of the federation's pages: an organiser registers a player of their club."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Notification, Player, handle_validator
from federation.permissions import organised_clubs


class PlayerRegisterForm(forms.Form):
    club: forms.ModelChoiceField[Club] = forms.ModelChoiceField(
        queryset=Club.objects.none(), label=_("Club"), to_field_name="slug"
    )
    handle = forms.CharField(
        label=_("Handle"),
        max_length=40,
        validators=[handle_validator],
        help_text=_("The short name written on match records, e.g. chloe.martin."),
    )
    display_name = forms.CharField(label=_("Full name"), max_length=120)
    country = forms.CharField(
        label=_("Country"), max_length=2, required=False, help_text=_("ISO 3166 code, e.g. FR")
    )
    public_name = forms.BooleanField(
        label=_("The player agrees that their full name is shown publicly"), required=False
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        clubs = organised_clubs(user)
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = clubs
        if clubs.count() == 1:
            club_field.initial = clubs.first()

    def clean_handle(self) -> str:
        handle = self.cleaned_data["handle"]
        if Player.objects.by_handle(handle).exists():
            raise forms.ValidationError(_("This handle is already taken."))
        return handle


class PlayerClaimForm(forms.Form):
    handle = forms.CharField(
        label=_("Your handle"),
        max_length=40,
        help_text=_("The handle the federation registered you with (ask your club)."),
    )


class PlayerInviteForm(forms.Form):
    handle = forms.CharField(label=_("Handle"), max_length=40)
    email = forms.EmailField(label=_("E-mail address"))


class NotificationSettingForm(forms.Form):
    """*My player*: which mails the player receives, and in which language."""

    kinds = forms.MultipleChoiceField(
        label=_("Mails I receive"),
        choices=Notification.Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    language = forms.ChoiceField(
        label=_("Language of the mails"),
        choices=[("", _("the site's language")), *settings.LANGUAGES],
        required=False,
    )
