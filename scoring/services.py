"""Writes for matches: replay a record and store it whole, or store nothing.

``match_record`` is the one entry point used by the API, the admin's import, the
demo data and the tests.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from federation.models import Club, Game, Player
from federation.months import ranking_month_for
from federation.permissions import can_write_for_club
from scoring.analysis import match_analysis
from scoring.engine import UnusableInput, replay
from scoring.engine.common import RecordError
from scoring.errors import MatchRejected
from scoring.models import Match, MatchSeat


@dataclass
class Recorded:
    """A stored match and the warnings its submitter should read."""

    match: Match
    warnings: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def record_fingerprint(record: dict[str, Any]) -> str:
    """A hash of the record's content, independent of key order and spacing."""
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def federation_now() -> datetime:
    return timezone.now().astimezone(ZoneInfo(settings.TIME_ZONE))


def match_replay(record: Any) -> dict[str, Any]:
    """Replay a record; ``MatchRejected`` when it is unusable or invalid."""
    try:
        result = replay(record)
    except UnusableInput as exc:
        raise MatchRejected(exc.error) from exc
    if not result["valid"]:
        raise MatchRejected(result["error"])
    return result


def _players_by_handle(handles: list[str]) -> list[Player]:
    found = {p.handle.lower(): p for p in Player.objects.filter(handle__in=_variants(handles))}
    missing = [h for h in handles if h.lower() not in found]
    if missing:
        raise MatchRejected(RecordError("unknown-player", None, player=missing[0]))
    return [found[h.lower()] for h in handles]


def _variants(handles: list[str]) -> list[str]:
    # handles are unique case-insensitively; query the exact and lower forms
    return list({*handles, *(h.lower() for h in handles)})


def _seat_rows(
    result: dict[str, Any], handles: list[str], players: list[Player]
) -> list[dict[str, Any]]:
    """One seat per player in record order, with the standing's figures."""
    by_handle = {row["player"]: row for row in result.get("standings", [])}
    rows = []
    for seat, (handle, player) in enumerate(zip(handles, players, strict=True)):
        standing = by_handle.get(handle, {})
        details = {
            k: v for k, v in standing.items() if k not in {"player", "seat", "score", "rank"}
        }
        rows.append(
            {
                "player": player,
                "seat": seat,
                "score": _int_or_none(standing.get("score")),
                "rank": standing.get("rank"),
                "points": _int_or_none(standing.get("points", standing.get("turn_points"))),
                "deduction": _int_or_none(standing.get("pips_left", standing.get("penalty"))),
                "details": details,
            }
        )
    return rows


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def match_record(
    *,
    club: Club,
    played_on: date,
    record: dict[str, Any],
    submitted_by: Any = None,
    now: datetime | None = None,
) -> Recorded:
    """Replay ``record`` and store the match with its seats, in one transaction.

    Raises ``MatchRejected`` (nothing stored) for an invalid record, an unknown
    player handle, a date in the future or a duplicate; ``PermissionDenied`` when
    ``submitted_by`` may not write for ``club``.
    """
    if submitted_by is not None and not can_write_for_club(submitted_by, club):
        raise PermissionDenied("You may only submit matches for a club you organise.")
    now = (now or timezone.now()).astimezone(ZoneInfo(settings.TIME_ZONE))
    if played_on > now.date():
        raise MatchRejected(RecordError("played-in-future", None, played_on=played_on.isoformat()))
    result = match_replay(record)
    game = Game.objects.get(key=result["game"])
    handles = list(record["players"])
    players = _players_by_handle(handles)
    fingerprint = record_fingerprint(record)
    _refuse_duplicate(game, played_on, fingerprint)  # before the costly analysis
    analysis = match_analysis(record, result)
    placement = ranking_month_for(played_on, now)
    warnings = placement.warnings() if result["finished"] else []
    try:
        with transaction.atomic():
            match = Match.objects.create(
                game=game,
                club=club,
                played_on=played_on,
                submitted_at=now,
                submitted_by=submitted_by
                if getattr(submitted_by, "is_authenticated", False)
                else None,
                record=record,
                verification=result["verification"],
                result=result,
                finished=result["finished"],
                analysis=analysis,
                fingerprint=fingerprint,
                counted_month=placement.counted_month if result["finished"] else None,
                late=placement.late,
            )
            rows = _seat_rows(result, handles, players)
            MatchSeat.objects.bulk_create(MatchSeat(match=match, **row) for row in rows)
    except IntegrityError:
        # a twin submitted at the same moment won the race to the unique constraint
        _refuse_duplicate(game, played_on, fingerprint)
        raise
    return Recorded(match=match, warnings=warnings)


def _refuse_duplicate(game: Game, played_on: date, fingerprint: str) -> None:
    existing = Match.objects.filter(game=game, played_on=played_on, fingerprint=fingerprint).first()
    if existing is not None:
        raise MatchRejected(RecordError("duplicate-match", None, match=existing.pk))
