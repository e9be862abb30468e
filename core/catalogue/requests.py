"""The codes of a request refused at the edge, before any app reads it: query
parameters that are not what the page reads (``core.params``)."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "bad-number": gettext_noop(
        "{parameter} must be a whole number written with the digits 0 to 9, at most {maximum}"
    ),
}
