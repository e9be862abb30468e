"""The one date field of the site's forms.

A browser's ``<input type="date">`` takes and sends ``YYYY-MM-DD`` only, whatever the
page's language; Django would render the value in the language's format (French
``25/11/2026``, German ``25.11.2026``), which the browser shows blank, so the first
submit of a French or German form failed. Every form's date is this field:
``YYYY-MM-DD`` in the page, ISO or the language's format read back.
"""

from __future__ import annotations

from typing import Any

from django import forms

ISO_DATE = "%Y-%m-%d"


class DateInput(forms.DateInput):
    """A browser's date picker, its value always ``YYYY-MM-DD``."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_DATE)


class DateField(forms.DateField):
    """A date typed with the browser's picker (Django also reads back ISO dates
    and the language's own formats, for clients that post them)."""

    widget = DateInput
