"""Marking texts for ``makemessages`` without importing Django."""

from __future__ import annotations

from collections.abc import Callable

#: maps an English template to the reader's language (gettext at the edge)
Translate = Callable[[str], str]


def gettext_noop(text: str) -> str:
    """Mark ``text`` for ``makemessages``; it is translated later, at the edge."""
    return text
