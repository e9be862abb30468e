"""Writes for matches: replay a record and store it whole, or store nothing.

``match_record`` is the one entry point used by the API, the admin's import, the
demo data and the tests. ``match_correct`` replaces a match's record by a corrected
one (replayed and checked like a submission, the previous version kept in the
history) and ``match_withdraw`` withdraws a match; neither ever deletes anything.

Every record is checked the same way before it is replayed: its size, its keys
(only those GAMES.md defines, ``scoring.records``) and its date. Duplicates are
found by meaning: the fingerprint is taken over the canonical record.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from core.generations import HOOKS, read_along
from core.prepared import prepared_cursor
from federation.models import Club, Game, Membership, Player
from federation.months import Placement, ranking_month_for
from federation.permissions import can_write_for_club, can_write_for_club_with_game
from scoring import records
from scoring.analysis import analysis_due, analysis_queue
from scoring.engine import UnusableInput, replay
from scoring.engine.common import RecordError
from scoring.errors import MatchRejected
from scoring.metrics import submission_counted
from scoring.models import AnalysisState, Match, MatchEvent, MatchSeat, Status, Verification
from scoring.signals import match_changed, match_correcting
from scoring.storage import match_insert

#: the earliest date a match may have been played on
EARLIEST_PLAY = date(1990, 1, 1)


@dataclass
class Recorded:
    """A stored match, the warnings its submitter should read, and the match's seats
    as stored (in seat order, with their players: the answer to a submission shows
    them without reading them back)."""

    match: Match
    warnings: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    seats: list[MatchSeat] = field(default_factory=list)


def record_fingerprint(
    record: dict[str, Any],
    players: list[Player],
    *,
    verification: str,
    played_on: date,
    game_number: int = 1,
) -> str:
    """The fingerprint of a valid record whose seats are ``players``: over its canonical
    form (handles as stored), and for a record that is not replayed move by move also
    over its date and game number."""
    handles = {
        handle: player.handle
        for handle, player in zip(record.get("players") or [], players, strict=False)
        if isinstance(handle, str)
    }
    return records.record_fingerprint(
        record,
        handles,
        replayed=verification == Verification.REPLAYED,
        played_on=played_on,
        game_number=game_number,
    )


def record_check(record: Any) -> None:
    """The service's own checks of a record, before the engine replays it: its size
    (``record-too-large``) and its keys (``unknown-field``)."""
    try:
        records.record_size_check(record)
        records.record_fields_check(record)
    except RecordError as error:
        raise MatchRejected.of(error) from error


def _date_check(played_on: date, today: date) -> None:
    if played_on < EARLIEST_PLAY:
        raise MatchRejected(
            "played-too-early",
            played_on=played_on.isoformat(),
            earliest=EARLIEST_PLAY.isoformat(),
        )
    if played_on > today:
        raise MatchRejected("played-in-future", played_on=played_on.isoformat())


def match_replay(record: Any) -> dict[str, Any]:
    """Replay a record; ``MatchRejected`` when it is unusable or invalid."""
    try:
        result = replay(record)
    except UnusableInput as exc:
        raise MatchRejected.of(exc.error) from exc
    if not result["valid"]:
        raise MatchRejected.of(result["error"])
    return result


def _players_by_handle(handles: list[str], reads: SubmissionReads | None = None) -> list[Player]:
    """The registered players of ``handles``, matched case-insensitively (handles are
    unique in lower case: the functional unique index serves the lookup); those of
    ``reads`` when it read these very handles."""
    wanted = sorted({h.lower() for h in handles})
    read = reads.players if reads is not None and reads.folded == wanted else None
    found = {p.handle.lower(): p for p in (_players_folded(wanted) if read is None else read)}
    missing = [h for h in handles if h.lower() not in found]
    if missing:
        raise MatchRejected("unknown-player", player=missing[0])
    seen: set[str] = set()
    for handle in handles:
        if handle.lower() in seen:  # "ana" and "ANA": two seats, one player
            raise MatchRejected("player-twice", player=handle)
        seen.add(handle.lower())
    return [found[h.lower()] for h in handles]


def _players_folded(folded: list[str]) -> list[Player]:
    """The players whose handle in lower case is one of ``folded``: plain SQL (every
    submission asks; the ORM's compiling cost more than the query), the same rows as
    ``Player.objects.annotate(folded=Lower("handle")).filter(folded__in=folded)``, which
    answers where ``= ANY(array)`` is not SQL (SQLite: the quick start)."""
    if connection.vendor != "postgresql":
        return list(Player.objects.annotate(folded=Lower("handle")).filter(folded__in=folded))
    fields = Player._meta.concrete_fields
    columns = ", ".join(connection.ops.quote_name(str(f.column)) for f in fields)
    table = connection.ops.quote_name(Player._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {table} WHERE LOWER({connection.ops.quote_name('handle')})"
            " = ANY(%s)",
            [folded],
        )
        rows = cursor.fetchall()
    names = [f.attname for f in fields]
    return [Player.from_db(connection.alias, names, row) for row in rows]


@dataclass(frozen=True)
class SubmissionReads:
    """What a submission reads before it stores anything, read in one statement
    (:func:`submission_reads`): the club of ``slug`` (None: there is none), whether
    ``user`` may write for it, the game of the record's key (None: there is none) and
    the players whose handle in lower case is one of ``folded``."""

    user: Any
    slug: str
    club: Club | None
    allowed: bool
    game: Game | None
    folded: list[str]
    players: list[Player]


def submission_reads(user: Any, slug: Any, record: Any) -> SubmissionReads | None:
    """The club of ``slug``, ``user``'s right to write for it, the game of ``record``'s
    key and the players of its handles, in ONE statement: the same rows as
    ``ClubSlugField``, ``can_write_for_club_with_game`` and ``_players_folded`` read
    one by one (each answer is still used where, and refused when, it was). None when
    the reads are not the plain ones (not PostgreSQL, no login, a slug that is not
    text): each is then read as before."""
    if connection.vendor != "postgresql" or not getattr(user, "is_authenticated", False):
        return None
    if not isinstance(slug, str) or "\x00" in slug:
        return None
    record = record if isinstance(record, dict) else {}
    key = record.get("game") if isinstance(record.get("game"), str) else None
    if key is not None and "\x00" in key:
        return None
    handles = record.get("players")
    usable = isinstance(handles, list) and all(isinstance(h, str) for h in handles)
    folded = sorted({h.lower() for h in handles}) if usable else []
    if any("\x00" in h for h in folded):
        folded = []
    sql, club_names, player_names = _reads_statement()
    params = [
        user.pk,
        Membership.Role.FEDERATION_ADMIN,
        Membership.Role.ORGANISER,
        slug,
        key,
        folded,
    ]
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    first = rows[0]
    clubs, games = len(club_names), 3
    club_row, game_row = first[1 : 1 + clubs], first[1 + clubs : 1 + clubs + games]
    alias = connection.alias
    return SubmissionReads(
        user=user,
        slug=slug,
        club=Club.from_db(alias, club_names, club_row) if club_row[0] is not None else None,
        allowed=bool(user.is_superuser or first[0]),
        game=Game.from_db(alias, ["id", "key", "name"], game_row) if game_row[0] else None,
        folded=folded,
        players=[
            Player.from_db(alias, player_names, row[1 + clubs + games :])
            for row in rows
            if row[1 + clubs + games] is not None
        ],
    )


@functools.cache
def _reads_statement() -> tuple[str, list[str], list[str]]:
    """The statement of :func:`submission_reads` (PostgreSQL's: written once a
    process) and the attribute names of its club's and its players' columns."""
    quote = connection.ops.quote_name
    club_fields, player_fields = Club._meta.concrete_fields, Player._meta.concrete_fields
    columns = [f"c.{quote(str(f.column))}" for f in club_fields]
    columns += ["g.id", "g.key", "g.name"]
    columns += [f"p.{quote(str(f.column))}" for f in player_fields]
    membership, club, game, player = (
        quote(model._meta.db_table) for model in (Membership, Club, Game, Player)
    )
    sql = (
        f"SELECT EXISTS (SELECT 1 FROM {membership} WHERE user_id = %s"
        " AND (role = %s OR (club_id = c.id AND role = %s))), "
        f"{', '.join(columns)} FROM (SELECT 1) AS one"
        f" LEFT JOIN {club} AS c ON c.slug = %s"
        f" LEFT JOIN {game} AS g ON g.key = %s"
        f" LEFT JOIN {player} AS p ON LOWER(p.{quote('handle')}) = ANY(%s)"
    )
    return sql, [f.attname for f in club_fields], [f.attname for f in player_fields]


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


@submission_counted
def match_record(
    *,
    club: Club,
    played_on: date,
    record: dict[str, Any],
    submitted_by: Any = None,
    now: datetime | None = None,
    game_number: int = 1,
    reason: str = "",
    reads: SubmissionReads | None = None,
) -> Recorded:
    """Replay ``record`` and store the match with its seats and its first event, in
    one transaction (``reason``: what its history says of how it came, if anything;
    ``reads``: the rights, the game and the players already read with the club, by
    :func:`submission_reads`, used where they would have been read).

    Raises ``MatchRejected`` (nothing stored) for a record too large, holding a key
    GAMES.md does not define, or invalid, an unknown player handle, a date before
    1990 or in the future, or a duplicate; ``PermissionDenied`` when
    ``submitted_by`` may not write for ``club``.
    """
    game_key = record.get("game") if isinstance(record, dict) else None
    if reads is not None and (reads.user != submitted_by or reads.club != club):
        reads = None  # read for another submission: not these answers
    if submitted_by is None:
        allowed, game = True, None
    elif reads is not None:
        allowed, game = reads.allowed, reads.game
    else:
        allowed, game = can_write_for_club_with_game(submitted_by, club, game_key)
    if not allowed:
        raise PermissionDenied("You may only submit matches for a club you organise.")
    now = (now or timezone.now()).astimezone(ZoneInfo(settings.TIME_ZONE))
    _game_number_check(game_number)
    _date_check(played_on, now.date())
    record_check(record)
    result = match_replay(record)
    if game is None or game.key != result["game"]:
        game = Game.objects.get(key=result["game"])
    handles = list(record["players"])
    players = _players_by_handle(handles, reads)
    fingerprint = record_fingerprint(
        record,
        players,
        verification=result["verification"],
        played_on=played_on,
        game_number=game_number,
    )
    # the analysis (Astronomy's) runs in a task once this commits: ``scoring.analysis``
    due = analysis_due(result)
    placement = ranking_month_for(played_on, now, window=settings.RANKING_PARAMS["window"])
    warnings = placement.warnings() if result["finished"] else []
    match = unsaved_match(
        game=game,
        club=club,
        when=(played_on, game_number, now),
        submitted_by=submitted_by,
        record=record,
        result=result,
        fingerprint=fingerprint,
        placement=placement,
    )
    seats = [MatchSeat(match=match, **row) for row in _seat_rows(result, handles, players)]
    event = _new_event(
        match, MatchEvent.Action.RECORDED, by=match.submitted_by, at=now, reason=reason
    )
    try:
        match_insert(match, seats, event)
    except IntegrityError:
        # a twin submitted at the same moment won the race to the unique constraint
        _refuse_duplicate(game, fingerprint)
        raise
    if due:
        analysis_queue(match)
    # the caches, and the webhooks once committed: the bump of the matches' generation
    # reads the webhooks' one in the same round trip (``read_along``)
    with read_along(HOOKS):
        match_changed.send(sender=Match, match=match, action=event.action, at=now, seats=seats)
    return Recorded(match=match, warnings=warnings, seats=seats)


def _game_number_check(game_number: Any) -> None:
    if isinstance(game_number, bool) or not isinstance(game_number, int) or game_number < 1:
        raise MatchRejected("bad-field", field="game_number", expected="whole-number-from-1")


def _refuse_duplicate(game: Game, fingerprint: str, *, other_than: int | None = None) -> None:
    """``duplicate-match`` naming the stored match (not withdrawn) of this content."""
    existing = Match.objects.filter(game=game, fingerprint=fingerprint).exclude(
        status=Status.WITHDRAWN
    )
    if other_than is not None:
        existing = existing.exclude(pk=other_than)
    found = existing.order_by("pk").values_list("pk", flat=True).first()
    if found is not None:
        raise MatchRejected("duplicate-match", match=found)


def _event(match: Match, action: str, **details: Any) -> MatchEvent:
    """Store the event ``action`` of ``match`` (``details``: as ``_new_event``) and
    tell the caches and the webhooks (``match_changed``)."""
    match_changed.send(
        sender=Match, match=match, action=action, at=details["at"], reason=details.get("reason", "")
    )
    event = _new_event(match, action, **details)
    event.save(force_insert=True)
    return event


def unsaved_match(
    *,
    game: Game,
    club: Club,
    when: tuple[date, int, datetime],
    submitted_by: Any,
    record: dict[str, Any],
    result: dict[str, Any],
    fingerprint: str,
    placement: Placement,
) -> Match:
    """The match a submission stores (not saved yet): ``when`` is its day, its number
    that day and the submission's moment; ``placement`` its ranking month. One builder
    for a single submission (``match_record``) and an import's rows."""
    played_on, game_number, now = when
    finished = result["finished"]
    return Match(
        game=game,
        club=club,
        played_on=played_on,
        game_number=game_number,
        submitted_at=now,
        submitted_by=submitted_by if getattr(submitted_by, "is_authenticated", False) else None,
        record=record,
        verification=result["verification"],
        result=result,
        finished=finished,
        analysis=None,
        analysis_state=AnalysisState.PENDING if analysis_due(result) else AnalysisState.NONE,
        fingerprint=fingerprint,
        counted_month=placement.counted_month if finished else None,
        late=placement.late,
    )


def _new_event(
    match: Match,
    action: str,
    *,
    by: Any,
    at: datetime,
    reason: str = "",
    replaced_record: Any = None,
) -> MatchEvent:
    """The event ``action`` of ``match``, not yet stored."""
    return MatchEvent(
        match=match,
        action=action,
        by=by if getattr(by, "is_authenticated", False) else None,
        at=at,
        reason=reason,
        version=match.version,
        fingerprint=match.fingerprint,
        replaced_record=replaced_record,
    )


# ---------------------------------------------------------------------------
# Corrections and withdrawals


def _may_change(by: Any, match: Match) -> None:
    if not can_write_for_club(by, match.club):
        raise PermissionDenied("You may only change matches of a club you organise.")


def _reason(reason: Any) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise MatchRejected("reason-required")
    return text


def _locked(match: Match, versions: Collection[int] | None = None) -> Match:
    """The match row, locked until the end of the transaction; ``match-withdrawn``
    (nothing may change a withdrawn match); ``match-version-changed`` when
    ``versions`` (the client's ``If-Match``) does not hold the match's version."""
    rows = Match.objects.select_for_update(of=("self",)).select_related("game", "club")
    locked = rows.get(pk=match.pk)
    if versions is not None and locked.version not in versions:
        raise MatchRejected("match-version-changed", match=locked.pk, version=locked.version)
    if locked.status == Status.WITHDRAWN:
        raise MatchRejected("match-withdrawn", match=locked.pk)
    return locked


def match_withdraw(
    *,
    match: Match,
    reason: str,
    by: Any,
    now: datetime | None = None,
    versions: Collection[int] | None = None,
) -> Match:
    """Withdraw ``match``: it stays stored with its history, is never rated again and no
    longer counts as a duplicate. ``PermissionDenied`` unless ``by`` may write for its
    club; ``MatchRejected`` without a reason, when it is already withdrawn, or when
    ``versions`` (an ``If-Match``) is given and does not hold its current version (412
    ``match-version-changed``: someone changed it meanwhile)."""
    _may_change(by, match)
    reason = _reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(match, versions)
        locked.status = Status.WITHDRAWN
        locked.save(update_fields=["status"])
        _event(locked, MatchEvent.Action.WITHDRAWN, by=by, at=now, reason=reason)
    return locked


def match_correct(
    *,
    match: Match,
    record: dict[str, Any],
    reason: str,
    by: Any,
    now: datetime | None = None,
    versions: Collection[int] | None = None,
) -> Recorded:
    """Replace the record of ``match`` by ``record``, replayed and checked like a
    submission (same size, keys and duplicate rules; the match's own date and game
    number). The match becomes the next version; the replaced record is kept in the
    correction's event. Nothing changes when it is refused (``MatchRejected``:
    invalid record, another game, a duplicate of another match, no change, no reason,
    a withdrawn match, a stale ``versions`` (``If-Match``: 412
    ``match-version-changed``); a refusal of a ``match_correcting`` receiver, such as
    a tournament table's ``correction-table-players``; ``PermissionDenied``).

    The counted month stays the one the match had: a result counted in a published
    list is corrected from the next list on (or at once by a forced re-run of that
    month). A match that was not counted (unfinished until now) is placed as if it
    were submitted now.
    """
    _may_change(by, match)
    reason = _reason(reason)
    now = (now or timezone.now()).astimezone(ZoneInfo(settings.TIME_ZONE))
    record_check(record)
    result = match_replay(record)
    if result["game"] != match.game.key:
        raise MatchRejected("correction-other-game", game=result["game"], expected=match.game.key)
    handles = list(record["players"])
    players = _players_by_handle(handles)
    fingerprint = record_fingerprint(
        record,
        players,
        verification=result["verification"],
        played_on=match.played_on,
        game_number=match.game_number,
    )
    try:
        with transaction.atomic():
            locked = _locked(match, versions)
            if fingerprint == locked.fingerprint:
                raise MatchRejected("correction-unchanged", match=locked.pk)
            # the apps above may refuse it (a tournament table keeps its players)
            match_correcting.send(sender=Match, match=locked, players=players, result=result)
            _refuse_duplicate(locked.game, fingerprint, other_than=locked.pk)
            replaced = locked.record
            warnings = _replace(locked, record, result, fingerprint, now)
            if locked.analysis_state == AnalysisState.PENDING:
                analysis_queue(locked)  # at its new version: the old task finds it stale
            locked.seats.all().delete()
            rows = _seat_rows(result, handles, players)
            MatchSeat.objects.bulk_create(MatchSeat(match=locked, **row) for row in rows)
            _event(
                locked,
                MatchEvent.Action.CORRECTED,
                by=by,
                at=now,
                reason=reason,
                replaced_record=replaced,
            )
    except IntegrityError:
        _refuse_duplicate(match.game, fingerprint, other_than=match.pk)
        raise
    return Recorded(match=locked, warnings=warnings)


def _replace(
    match: Match,
    record: dict[str, Any],
    result: dict[str, Any],
    fingerprint: str,
    now: datetime,
) -> list[tuple[str, dict[str, Any]]]:
    """Put the corrected version on ``match`` (saved); the warnings of its placement."""
    warnings: list[tuple[str, dict[str, Any]]] = []
    if not result["finished"]:
        match.counted_month = None
    elif not match.finished:  # never counted: placed as a submission of today would be
        window = settings.RANKING_PARAMS["window"]
        placement = ranking_month_for(match.played_on, now, window=window)
        match.counted_month, match.late = placement.counted_month, placement.late
        warnings = placement.warnings()
    match.record, match.result, match.analysis = record, result, None
    match.analysis_state = AnalysisState.PENDING if analysis_due(result) else AnalysisState.NONE
    match.verification, match.finished = result["verification"], result["finished"]
    match.fingerprint = fingerprint
    match.status = Status.CORRECTED
    match.version += 1
    match.save()
    return warnings
