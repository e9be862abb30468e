"""Checks that the stored data still says what it said: ``manage.py verify_integrity``.

Run it after a restore (``deploy/scripts/restore.sh``), an upgrade or a suspected
fault:

* every stored record is replayed by its engine: it must still be valid and give the
  stored result (standings, moves, verification);
* every fingerprint is recomputed from the record, its seats and its date;
* every game-month's latest ranking list is recomputed from the stored results: the
  inputs hash and every entry (rank, number, mu, sigma, results counted) must match.
  A list whose inputs were changed *after* it was published by a correction or a
  withdrawal is reported as such, not as damage: published lists never change, and a
  forced re-run publishes a new revision with the corrected results.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from federation.months import month_index
from ratings.engine.params import Params
from ratings.engine.ranking import compute_ranking
from ratings.models import RankingList
from ratings.storage import inputs_hash, month_results
from scoring.engine import replay
from scoring.models import Match, MatchEvent
from scoring.services import record_fingerprint

#: what a replay must reproduce of the stored result
COMPARED = ("game", "valid", "finished", "verification", "moves", "standings")


@dataclass(frozen=True)
class Finding:
    """One thing that does not match; ``damage`` False: explained, not a fault."""

    subject: str
    problem: str
    damage: bool = True

    def __str__(self) -> str:
        return f"{self.subject}: {self.problem}"


def verify_matches() -> Iterator[Finding]:
    """Replay every stored record and recompute its fingerprint."""
    matches = Match.objects.order_by("id").prefetch_related("seats__player")
    for match in matches.iterator(chunk_size=500):
        yield from _verify_match(match)


def _verify_match(match: Match) -> Iterator[Finding]:
    subject = f"match {match.pk}"
    result = replay(match.record)
    if not result.get("valid"):
        code = (result.get("error") or {}).get("code")
        yield Finding(subject, f"its record no longer replays ({code})")
        return
    differing = [key for key in COMPARED if result.get(key) != match.result.get(key)]
    if differing:
        yield Finding(subject, f"the replay differs from the stored result in {differing}")
    players = [seat.player for seat in sorted(match.seats.all(), key=lambda s: s.seat)]
    fingerprint = record_fingerprint(
        match.record,
        players,
        verification=match.verification,
        played_on=match.played_on,
        game_number=match.game_number,
    )
    if fingerprint != match.fingerprint:
        yield Finding(subject, "its fingerprint does not match its content")


def latest_lists() -> list[RankingList]:
    """The latest revision of every game-month's list."""
    newest = RankingList.objects.values("game", "month").annotate(top=Max("revision"))
    wanted = {(row["game"], row["month"], row["top"]) for row in newest}
    lists = RankingList.objects.select_related("game").order_by("game__key", "month")
    return [r for r in lists if (r.game_id, r.month, r.revision) in wanted]


def verify_lists() -> Iterator[Finding]:
    for ranking in latest_lists():
        yield from verify_list(ranking)


def verify_list(ranking: RankingList) -> Iterator[Finding]:
    """Recompute ``ranking`` from the stored results; compare hash and entries."""
    subject = f"ranking {ranking}"
    params = Params.from_dict(ranking.parameters)
    results = month_results(ranking.game, ranking.month, params)
    if inputs_hash(results, params) != ranking.inputs_hash:
        changes = _changes_since(ranking)
        if changes:
            yield Finding(
                subject,
                f"its inputs changed after publication ({changes} corrections or "
                "withdrawals); a forced re-run publishes a new revision",
                damage=False,
            )
        else:
            yield Finding(subject, "the stored results no longer give its inputs hash")
        return
    computed = compute_ranking(results, month_index(ranking.month), params)
    if _entries(computed.entries) != _stored_entries(ranking):
        yield Finding(subject, "recomputing it from the stored results gives other entries")


def _changes_since(ranking: RankingList) -> int:
    return (
        MatchEvent.objects.filter(match__game=ranking.game, at__gt=ranking.published_at)
        .exclude(action=MatchEvent.Action.RECORDED)
        .count()
    )


def _entries(entries: Any) -> list[tuple[Any, ...]]:
    return [
        (int(e.player), e.rank, e.fladub, e.mu, e.sigma, e.results_counted, e.provisional)
        for e in entries
    ]


def _stored_entries(ranking: RankingList) -> list[tuple[Any, ...]]:
    rows = ranking.entries.order_by("position").values_list(
        "player_id", "rank", "fladub", "mu", "sigma", "results_counted", "provisional"
    )
    return [tuple(row) for row in rows]
