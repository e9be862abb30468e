"""An import's rows stored a chunk at a time: the same checks and outcomes as one
``match_record`` per row, with the lookups and the inserts shared by the chunk.

For a chunk of rows (``import_run`` takes :data:`CHUNK` at a time, under the job's
lock, with the job's counters in the same transaction): the uploader's rights are
asked once, the games and the players of every row are read in one query each, the
matches the rows would repeat in one more, and the new matches, their seats and their
first events are stored with one ``COPY`` per table (``storage.matches_insert``). Each row is checked in the
order ``match_record`` checks it (the file's own error, unsafe text, rights, game
number, date, the record's size and keys, its replay, its players), so a row is
stored, reported as a duplicate (of a match stored before, or of an earlier row of
the file) or refused exactly as it was row by row. Then each new match is told to
the rest of the service as a submission tells it (``match_changed``, its analysis
queued): after the commit, mails, webhooks and caches follow.

Should another submission store one of the chunk's matches meanwhile (the unique
index refuses the insert), nothing of the chunk is kept and its rows go through
``match_record`` one by one, which reports that row as the duplicate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from core.text import find_unsafe
from federation.models import Game, Player
from federation.months import ranking_month_for
from federation.permissions import can_write_for_club
from hooks.emit import emitted_together
from scoring.analysis import analysis_due, analysis_queue
from scoring.errors import MatchRejected
from scoring.metrics import SUBMISSIONS
from scoring.models import ImportJob, Match, MatchEvent, MatchSeat, Status
from scoring.services import (
    _date_check,
    _game_number_check,
    _new_event,
    _seat_rows,
    match_replay,
    record_check,
    record_fingerprint,
    unsaved_match,
)
from scoring.signals import match_changed
from scoring.storage import matches_insert

#: rows stored per transaction (and per update of the job's progress)
CHUNK = 100


@dataclass
class _New:
    """A row that will be a new match, once the chunk is inserted."""

    where: dict[str, Any]
    match: Match
    seats: list[MatchSeat]
    event: MatchEvent
    due: bool


@dataclass
class _Outcomes:
    """The chunk's rows in order: ``("new", _New)``, ``("duplicate", where, match
    id)``, ``("twin", _New, where)`` or ``("rejected", where, error)``."""

    rows: list[tuple[Any, ...]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # codes, for the metrics


def rows_store(job: ImportJob, rows: list[dict[str, Any]], one: Callable[..., None]) -> None:
    """Store ``rows`` (the next ones of ``job``, in order), counted on ``job`` (not
    saved); ``one(job, row)`` stores a single row the old way (the fallback)."""
    outcomes = _outcomes(job, rows)
    new = [o[1] for o in outcomes.rows if o[0] == "new"]
    try:
        with transaction.atomic():
            _insert(new)
    except IntegrityError:
        # a twin of one of them was stored meanwhile: row by row, as a submission
        for row in rows:
            with transaction.atomic():
                one(job, row)
        return
    for code in outcomes.refused:
        SUBMISSIONS.labels(outcome="refused", code=code).inc()
    with emitted_together():  # the webhooks' endpoints read once for the chunk
        for item in new:
            if item.due:
                analysis_queue(item.match)
            match_changed.send(
                sender=Match,
                match=item.match,
                action=item.event.action,
                at=item.event.at,
                seats=item.seats,
            )
            transaction.on_commit(SUBMISSIONS.labels(outcome="stored", code="").inc)
    for outcome in outcomes.rows:
        kind = outcome[0]
        if kind == "new":
            job.stored += 1
            job.stored_rows.append({**outcome[1].where, "match": outcome[1].match.pk})
        elif kind == "twin":
            job.duplicates += 1
            job.duplicate_rows.append({**outcome[2], "match": outcome[1].match.pk})
        elif kind == "duplicate":
            job.duplicates += 1
            job.duplicate_rows.append({**outcome[1], "match": outcome[2]})
        else:
            error = outcome[2]
            job.rejected.append(
                {
                    **outcome[1],
                    "code": error.get("code", ""),
                    "move": error.get("move"),
                    "params": error.get("params") or {},
                }
            )


def _insert(new: list[_New]) -> None:
    matches_insert([(item.match, item.seats, item.event) for item in new])


def _outcomes(job: ImportJob, rows: list[dict[str, Any]]) -> _Outcomes:
    """Each row checked as ``match_record`` checks it, the lookups shared."""
    user = job.submitted_by
    allowed = user is None or can_write_for_club(user, job.club)
    now = timezone.now().astimezone(ZoneInfo(settings.TIME_ZONE))
    lookups = _Lookups(rows)
    out = _Outcomes()
    pending: list[tuple[dict[str, Any], _New]] = []
    for row in rows:
        where = {"row": row["row"], "line": row.get("line")}
        try:
            if row.get("error"):
                raise _FileRow(MatchRejected.of(row["error"]))
            unsafe = find_unsafe(row["record"], "record")
            if unsafe is not None:
                raise _FileRow(MatchRejected("import-unsafe-text", field=unsafe))
            if not allowed:
                raise PermissionDenied
            played_on = date.fromisoformat(row["played_on"]) if row.get("played_on") else None
            item = _prepared(
                job, row, played_on or job.played_on, now, lookups, where=where, user=user
            )
        except _FileRow as exc:
            out.rows.append(("rejected", where, exc.error.as_dict()))
            continue
        except MatchRejected as exc:
            out.refused.append(exc.code)
            out.rows.append(("rejected", where, exc.as_dict()))
            continue
        except PermissionDenied:
            out.rows.append(("rejected", where, {"code": "not-organiser"}))
            continue
        pending.append((where, item))
        out.rows.append(("pending", where, item))
    _duplicates(out, pending)
    return out


class _FileRow(Exception):
    """A row the file refused (not a submission: not counted)."""

    def __init__(self, error: MatchRejected) -> None:
        self.error = error


class _Lookups:
    """The games and the players the chunk's rows name, read once."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        handles = {
            h.lower()
            for row in rows
            if isinstance(row.get("record"), dict)
            and isinstance(row["record"].get("players"), list)
            for h in row["record"]["players"]
            if isinstance(h, str)
        }
        players = Player.objects.annotate(folded=Lower("handle")).filter(folded__in=handles)
        self.players = {p.handle.lower(): p for p in players} if handles else {}
        self.games = {g.key: g for g in Game.objects.all()}
        self.placements: dict[date, Any] = {}

    def game(self, key: str) -> Game:
        if key not in self.games:
            raise Game.DoesNotExist(f"no game {key!r}")
        return self.games[key]

    def seated(self, handles: list[str]) -> list[Player]:
        """As ``scoring.services._players_by_handle``, from the chunk's players."""
        missing = [h for h in handles if h.lower() not in self.players]
        if missing:
            raise MatchRejected("unknown-player", player=missing[0])
        seen: set[str] = set()
        for handle in handles:
            if handle.lower() in seen:
                raise MatchRejected("player-twice", player=handle)
            seen.add(handle.lower())
        return [self.players[h.lower()] for h in handles]


def _prepared(
    job: ImportJob,
    row: dict[str, Any],
    played_on: date,
    now: datetime,
    lookups: _Lookups,
    *,
    where: dict[str, Any],
    user: Any,
) -> _New:
    """The match of ``row`` as ``match_record`` builds it (not stored)."""
    record = row["record"]
    game_number = row.get("game_number") or 1
    _game_number_check(game_number)
    _date_check(played_on, now.date())
    record_check(record)
    result = match_replay(record)
    game = lookups.game(result["game"])
    handles = list(record["players"])
    players = lookups.seated(handles)
    fingerprint = record_fingerprint(
        record,
        players,
        verification=result["verification"],
        played_on=played_on,
        game_number=game_number,
    )
    due = analysis_due(result)
    if played_on not in lookups.placements:
        window = settings.RANKING_PARAMS["window"]
        lookups.placements[played_on] = ranking_month_for(played_on, now, window=window)
    placement = lookups.placements[played_on]
    match = unsaved_match(
        game=game,
        club=job.club,
        when=(played_on, game_number, now),
        submitted_by=user,
        record=record,
        result=result,
        fingerprint=fingerprint,
        placement=placement,
    )
    seats = [MatchSeat(match=match, **seat) for seat in _seat_rows(result, handles, players)]
    event = _new_event(match, MatchEvent.Action.RECORDED, by=match.submitted_by, at=now)
    return _New(where=where, match=match, seats=seats, event=event, due=due)


def _duplicates(out: _Outcomes, pending: list[tuple[dict[str, Any], _New]]) -> None:
    """Settle the pending rows: a duplicate of a stored match (not withdrawn, the
    oldest), a twin of an earlier row of the chunk, or new."""
    keys = {(item.match.game_id, item.match.fingerprint) for _where, item in pending}
    stored: dict[tuple[int, str], int] = {}
    if keys:
        found = Match.objects.filter(
            game_id__in={k[0] for k in keys}, fingerprint__in={k[1] for k in keys}
        ).exclude(status=Status.WITHDRAWN)
        for game_id, fingerprint, pk in found.order_by("-pk").values_list(
            "game_id", "fingerprint", "pk"
        ):
            stored[(game_id, fingerprint)] = pk  # the oldest last: kept
    first: dict[tuple[int, str], _New] = {}
    for index, outcome in enumerate(out.rows):
        if outcome[0] != "pending":
            continue
        _kind, where, item = outcome
        key = (item.match.game_id, item.match.fingerprint)
        if key in stored:
            out.refused.append("duplicate-match")
            out.rows[index] = ("duplicate", where, stored[key])
        elif key in first:
            out.refused.append("duplicate-match")
            out.rows[index] = ("twin", first[key], where)
        else:
            first[key] = item
            out.rows[index] = ("new", item)
