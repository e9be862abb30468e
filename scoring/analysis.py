"""Post-game analysis shown on a match page, computed by a Celery task once a match
(or a correction) is committed: a submission never waits for it.

The submission stores the match with ``analysis_state`` *pending* when its game and
record have an analysis (``analysis_due``) and queues ``scoring.tasks.analyse_match``
with the match's id and version once the transaction commits (in-process in the quick
start, where tasks run eagerly). The task (``analysis_run``) stores the analysis and
the state *done*, *exhausted* (the solver's node budget ran out before the opening
with nothing found: the answer may be incomplete) or *failed* (the analysis raised).
It is idempotent: a match no longer pending, or corrected since (another version), is
left alone; the correction queued its own task for its latest version.

A task lost before it ran (the broker down at the commit, a worker killed) would leave
its match pending for ever: beat (``scoring.tasks.resend_stale_analyses``, every 10
minutes) sends again the analysis of every match still pending 10 minutes after its
last change (:func:`stale_analyses_resend`), once per run, so at most once per period;
a message that arrives twice stores one analysis.

* Astronomy Domino: the decisive mistake — the loser's last move that turned a
  position they could force a win from into one they could not (perfect play;
  positions small enough for the endgame solver only, its node budget bounds the
  time). Migration ``scoring.0006`` recomputed the analyses stored under the
  earlier definition (the first flip of the outcome, which could name the winner).
* Dominyam: each turn's best available meal is already in the replay
  (``best_meal``), nothing more to do here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from core.generations import MATCHES, bump_on_commit
from scoring.models import AnalysisState, Match, MatchEvent

log = logging.getLogger(__name__)

#: an analysis and whether it is complete (False: the solver's budget ran out)
Analysed = tuple[dict[str, Any] | None, bool]


def _astronomy(record: dict[str, Any], result: dict[str, Any]) -> Analysed:
    if result.get("verification") != "replayed" or not result.get("finished"):
        return None, True
    from scoring.engine.astronomy import decisive_mistake_solved

    mistake, complete = decisive_mistake_solved(record)
    return {"decisive_mistake": mistake}, complete


ANALYSES: dict[str, Callable[[dict[str, Any], dict[str, Any]], Analysed]] = {
    "astronomy": _astronomy,
}


def has_analysis(result: dict[str, Any]) -> bool:
    """Does ``result``'s game have an analysis (which may take seconds)?"""
    return result.get("game", "") in ANALYSES


def analysis_due(result: dict[str, Any]) -> bool:
    """Will the match of ``result`` have an analysis (its state starts *pending*)?"""
    return (
        has_analysis(result)
        and result.get("verification") == "replayed"
        and bool(result.get("finished"))
    )


def match_analysis(record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    """The analysis of a valid replayed record, or ``None`` for games without one."""
    return match_analysed(record, result)[0]


def match_analysed(record: dict[str, Any], result: dict[str, Any]) -> Analysed:
    """``match_analysis`` and whether it is complete."""
    analyse = ANALYSES.get(result.get("game", ""))
    return analyse(record, result) if analyse else (None, True)


def analysis_queue(match: Match) -> None:
    """Queue the analysis of ``match`` at its current version once the transaction
    commits (at once outside one): a worker never reads a row not yet visible."""
    from scoring.tasks import analyse_match  # the tasks import this module

    transaction.on_commit(lambda: analyse_match.delay(match.pk, match.version), robust=True)


def analysis_run(match_id: int, version: int) -> str:
    """Analyse ``match_id`` at ``version`` and store the analysis with its state; the
    state the match is left in (``"stale"``: missing, corrected since, or no longer
    pending — a second run of the same task stores nothing)."""
    match = Match.objects.filter(pk=match_id).only("pk", "version", "analysis_state").first()
    if match is None or match.version != version or match.analysis_state != AnalysisState.PENDING:
        return "stale"
    record, result = Match.objects.values_list("record", "result").get(pk=match_id)
    try:
        analysis, complete = match_analysed(record, result)
        state = AnalysisState.DONE if complete else AnalysisState.EXHAUSTED
    except Exception:  # a bug of the analysis must not leave the match pending forever
        log.exception("analysis of match %s version %s failed", match_id, version)
        analysis, state = None, AnalysisState.FAILED
    # one conditional update: a correction committed meanwhile (another version) wins
    stored = Match.objects.filter(
        pk=match_id, version=version, analysis_state=AnalysisState.PENDING
    ).update(analysis=analysis, analysis_state=state)
    if not stored:
        return "stale"
    bump_on_commit(MATCHES)  # the match page's and API's validators change
    return str(state)


#: an analysis still pending this long after its match's last change (recorded,
#: corrected) lost its task: beat sends it again
STALE_PENDING = timedelta(minutes=10)
#: analyses sent again per run of beat's task at most (the oldest matches first)
RESEND_AT_MOST = 1000


def stale_analyses_resend(
    *, enqueue: Callable[[int, int], None], now: datetime | None = None
) -> int:
    """Send again (``enqueue(match_id, version)``) the analyses of the matches pending
    for more than :data:`STALE_PENDING` since their last change; how many were sent. A
    broker still down sends nothing (logged): the next run tries again."""
    cutoff = (now or timezone.now()) - STALE_PENDING
    recent = MatchEvent.objects.filter(match=OuterRef("pk"), at__gte=cutoff)
    stale = (
        Match.objects.filter(analysis_state=AnalysisState.PENDING)
        .exclude(Exists(recent))
        .order_by("pk")
        .values_list("pk", "version")[:RESEND_AT_MOST]
    )
    sent = 0
    for match_id, version in stale:
        try:
            enqueue(match_id, version)
        except Exception as exc:  # the broker's errors vary: kombu, redis, socket
            log.warning("could not send the analysis of match %s again: %s", match_id, exc)
            break
        sent += 1
    return sent
