"""Forms of the login's second step, the enrolment and the API tokens page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class CodeForm(forms.Form):
    """A code from the authenticator app, or a recovery code."""

    code = forms.CharField(
        label=_("Code"),
        max_length=20,
        help_text=_("The 6 digits your authenticator app shows, or one of your recovery codes."),
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autofocus": True, "autocapitalize": "none"}
        ),
    )


class EnrolForm(forms.Form):
    """The first code of a new authenticator (it proves the secret was copied)."""

    code = forms.CharField(
        label=_("Code from the app"),
        max_length=10,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "pattern": "[0-9 ]*"}
        ),
    )


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        help_text=_("What uses the token, e.g. the club's results script."),
    )
