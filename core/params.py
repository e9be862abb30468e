"""Numbers read from a query string or a form: ASCII digits only, and bounded.

``str.isdigit`` is true of ``²`` and ``٣`` too, which ``int()`` then refuses or reads
as another number; and a number past PostgreSQL's ``bigint`` becomes a database
error. ``whole_number`` takes ``0``-``9`` only, up to ``MAXIMUM``, and refuses
anything else with a 400 (``bad-number``) that the API and the pages render.
"""

from __future__ import annotations

import re

from core.errors import CodedError

#: the largest number a parameter may give (far below bigint's 9.2e18)
MAXIMUM = 1_000_000_000
DIGITS = re.compile(r"[0-9]{1,10}")


class BadParameter(CodedError):
    """A query parameter or a form value that is not what the page reads (400)."""

    status = 400


def digits(text: str, maximum: int = MAXIMUM) -> int | None:
    """``text`` as a whole number when it is ASCII digits up to ``maximum``, else None."""
    if not DIGITS.fullmatch(text):
        return None
    number = int(text)
    return number if number <= maximum else None


def whole_number(text: str | None, *, parameter: str, maximum: int = MAXIMUM) -> int | None:
    """None for a missing or empty ``text``; its number for ASCII digits up to
    ``maximum``; anything else is refused (``BadParameter`` ``bad-number``)."""
    if text is None or text == "":
        return None
    number = digits(text, maximum)
    if number is None:
        raise BadParameter("bad-number", parameter=parameter, maximum=maximum)
    return number
