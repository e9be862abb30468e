"""The organisers' forms: a match's header (club, date, game number) for the guided
entry forms, the upload of a record (pasted or a file), a bulk import, and the
correction or withdrawal of a match from its page.

The guided forms' own fields (seats, sheet rows, summaries) are read by
``scoring.entry``; its problem codes are put into words here (:func:`problem_text`).
"""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.dates import DateField
from core.errors import localized
from core.text import find_unsafe
from federation.permissions import organised_clubs
from scoring.entry.files import MAX_FILE_BYTES

MAX_UPLOAD = 2 * 1024 * 1024


def problem_text(code: str, params: dict[str, Any]) -> str:
    """A problem of a guided form in the reader's language."""
    if code == "whole-number" and params.get("high") is not None:
        code = "whole-number-range"
    return localized(code, None, params)


def _today() -> Any:
    return timezone.localdate()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_record(text: str) -> Any:
    """The record of a pasted text: JSON without NaN or Infinity, and without the text
    the database cannot store (NUL characters, lone surrogates)."""
    if not text.strip():
        raise forms.ValidationError(_("Paste a match record or choose a file."))
    try:
        record = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise forms.ValidationError(
            _("The record is not valid JSON: %(error)s"), params={"error": exc}
        ) from exc
    where = find_unsafe(record, "record")
    if where is not None:
        raise forms.ValidationError(
            _("%(field)s holds a NUL character or a lone surrogate, which cannot be stored."),
            params={"field": where},
        )
    return record


def _clubs_of(form: forms.Form, user: Any) -> None:
    """Offer the clubs ``user`` writes for; preselect the club when there is one."""
    field = cast(forms.ModelChoiceField, form.fields["club"])
    field.queryset = organised_clubs(user)
    if not form.is_bound and "club" not in form.initial:
        clubs = list(field.queryset[:2])
        if len(clubs) == 1:
            form.initial["club"] = clubs[0].slug


class MatchHeaderForm(forms.Form):
    """Where and when a match was played: the header of every entry form."""

    club: forms.ModelChoiceField = forms.ModelChoiceField(
        queryset=None, label=_("Club"), to_field_name="slug"
    )
    played_on = DateField(label=_("Played on"), initial=_today)
    game_number = forms.IntegerField(
        label=_("Game number"),
        min_value=1,
        max_value=999,
        initial=1,
        required=False,
        help_text=_("The second identical result of the same day is game 2."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _clubs_of(self, user)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["game_number"] = data.get("game_number") or 1
        return data


class MatchSubmitForm(MatchHeaderForm):
    """A full record, pasted or uploaded (clubs that record digitally)."""

    record_text = forms.CharField(
        label=_("Match record (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 14, "cols": 90, "spellcheck": "false"}),
    )
    record_file = forms.FileField(label=_("…or a record file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("record_file")
        if upload is not None and upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        text = upload.read().decode("utf-8", "replace") if upload else data.get("record_text", "")
        data["record"] = parse_record(text or "")
        data["game_number"] = data.get("game_number") or 1
        return data


class ImportForm(forms.Form):
    """A bulk import: a CSV of summaries, or a JSON array or JSON lines of records."""

    club: forms.ModelChoiceField = forms.ModelChoiceField(
        queryset=None, label=_("Club"), to_field_name="slug"
    )
    played_on = DateField(label=_("Date of the rows without a date"), initial=_today)
    file = forms.FileField(
        label=_("File"),
        help_text=_("CSV of summaries, JSON array or JSON lines of records; at most 10 MB."),
        widget=forms.ClearableFileInput(
            attrs={"accept": ".csv,.json,.jsonl,.txt", "data-max-bytes": MAX_FILE_BYTES}
        ),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _clubs_of(self, user)
        # the page's script refuses a file too large before it is sent
        self.fields["file"].widget.attrs["data-too-large"] = gettext(
            "The file is larger than 10 MB."
        )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(gettext("The file is larger than 10 MB."))
        return upload


class MatchCorrectForm(forms.Form):
    """A corrected record for a match, and why."""

    record_text = forms.CharField(
        label=_("Corrected record (JSON)"),
        widget=forms.Textarea(attrs={"rows": 14, "cols": 90, "spellcheck": "false"}),
    )
    reason = forms.CharField(label=_("Reason"), max_length=1000)
    #: the version the page showed: a correction of a match changed meanwhile is refused
    version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "record_text" in data:
            data["record"] = parse_record(data["record_text"])
        return data


class MatchWithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=1000)
    version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
