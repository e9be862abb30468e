"""Refusals of a match: a submission, a correction or a withdrawal refused whole.

The engines and the service report a stable code with parameters (the engines'
``RecordError``); :class:`MatchRejected` carries it to the edge, where the one
catalogue (``core.catalogue``) renders it in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import CodedError
from scoring.engine.common import RecordError


class MatchRejected(CodedError):
    """A submission refused whole; nothing was stored. Its payload names the move at
    fault (None when the record as a whole is)."""

    WITH_MOVE = True
    STATUS_BY_CODE = {
        "duplicate-match": 409,
        "match-withdrawn": 409,
        "record-too-large": 413,
        "match-version-changed": 412,
    }

    @classmethod
    def of(cls, error: RecordError | Mapping[str, Any]) -> MatchRejected:
        """The refusal of an engine's error (or of its stored ``{code, move, params}``)."""
        if isinstance(error, RecordError):
            return cls(error.code, move=error.move, **error.params)
        return cls(
            str(error.get("code", "")), move=error.get("move"), **(error.get("params") or {})
        )
