"""Text the database cannot store: NUL characters and lone surrogates.

PostgreSQL refuses a NUL (``\\u0000``) in text and JSONB, and a lone surrogate
(``\\ud800``..``\\udfff`` without its pair, which JSON can spell) cannot be encoded
to UTF-8. Such input is refused whole at the edge with a 400, before anything
touches the database.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

UNSAFE = re.compile("[\x00\ud800-\udfff]")


def unsafe_text(value: str) -> bool:
    """True when ``value`` holds a NUL or a lone surrogate."""
    return UNSAFE.search(value) is not None


def scrubbed(value: str) -> str:
    """``value`` with each NUL and lone surrogate replaced by U+FFFD (to quote input
    back, e.g. in an error's parameters, where the database may keep it)."""
    return UNSAFE.sub("\ufffd", value)


def find_unsafe(data: Any, path: str = "") -> str | None:
    """The path (``record.deals[0].hands.ana``) of the first unsafe string in ``data``
    (keys included), or ``None``. Iterative, so deep nesting cannot overflow."""
    stack: list[tuple[Any, str]] = [(data, path)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            if unsafe_text(value):
                return where or "(body)"
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if isinstance(key, str) and unsafe_text(key):
                    return where or "(body)"
                stack.append((item, f"{where}.{key}" if where else str(key)))
        elif isinstance(value, list | tuple):
            stack.extend((item, f"{where}[{i}]") for i, item in enumerate(value))
    return None
