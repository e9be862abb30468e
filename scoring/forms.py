"""The organisers' submission form: a club, a date and a match record (pasted or uploaded)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.permissions import organised_clubs

MAX_UPLOAD = 2 * 1024 * 1024


class MatchSubmitForm(forms.Form):
    club = forms.ModelChoiceField(queryset=None, label=_("Club"), to_field_name="slug")
    played_on = forms.DateField(
        label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    record_text = forms.CharField(
        label=_("Match record (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 14, "cols": 90, "spellcheck": "false"}),
    )
    record_file = forms.FileField(label=_("…or a record file"), required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = organised_clubs(user)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("record_file")
        if upload is not None and upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        text = upload.read().decode("utf-8", "replace") if upload else data.get("record_text", "")
        if not text.strip():
            raise forms.ValidationError(_("Paste a match record or choose a file."))
        try:
            data["record"] = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise forms.ValidationError(
                _("The record is not valid JSON: %(error)s"), params={"error": exc}
            ) from exc
        return data
