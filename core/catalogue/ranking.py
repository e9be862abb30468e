"""The codes of the month close and of the ranking's publication."""

from __future__ import annotations

MESSAGES: dict[str, str] = {}
