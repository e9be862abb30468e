"""The submissions counter: every ``match_record`` call, stored or refused by code.

A *submission* is one call of ``scoring.services.match_record``: the API, the entry
forms, the admin, a tournament table and each row of an import. ``outcome`` is
``stored`` (counted once the transaction commits: a rolled-back match is not stored)
or ``refused``, with the refusal's ``code`` (``duplicate-match``, ``unknown-player``,
an engine's code...). An import's rows are counted here in the worker's process; the
web's ``/metrics`` also reports them from the database (``quotient_import_rows_total``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from django.db import transaction
from prometheus_client import Counter

from scoring.errors import MatchRejected

SUBMISSIONS = Counter(
    "quotient_submissions",
    "Match submissions, by outcome (stored, refused) and refusal code.",
    ["outcome", "code"],
)

P = ParamSpec("P")
R = TypeVar("R")


def submission_counted(record: Callable[P, R]) -> Callable[P, R]:
    """``record`` (``match_record``), counted in :data:`SUBMISSIONS`."""

    @wraps(record)
    def counted(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            result = record(*args, **kwargs)
        except MatchRejected as exc:
            SUBMISSIONS.labels(outcome="refused", code=exc.code).inc()
            raise
        transaction.on_commit(SUBMISSIONS.labels(outcome="stored", code="").inc)
        return result

    return counted
