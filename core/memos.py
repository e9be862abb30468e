"""A process's memos of stored data, registered so that they can be dropped at once.

Some modules keep, per process, what they read of data that never changes under its key
(a published list's instance, its provisional page's rows and their writing), in a
small dict of their own. Such a memo is right for the process that serves requests.
A test suite, which deletes and writes its data again between tests under the same
ids, needs to start each test without them. ``memo`` registers a module's dict;
``clear_memos`` empties every registered one.
"""

from __future__ import annotations

from typing import Any, TypeVar

M = TypeVar("M", bound=dict[Any, Any])

_MEMOS: list[dict[Any, Any]] = []


def memo(kept: M) -> M:
    """``kept``, registered as a memo of this process (``clear_memos`` empties it)."""
    _MEMOS.append(kept)
    return kept


def clear_memos() -> None:
    """Empty every registered memo of this process."""
    for kept in _MEMOS:
        kept.clear()
