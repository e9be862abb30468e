"""Results from the table: a seated player reports, the others confirm or contest.

A report is checked as the organiser's entry would be (the table's game and players in
seat order, the service's checks, the engine's replay, a finished match) and stored
without a match. When every other seated player has confirmed the same report, the
match is recorded by :func:`~tournaments.services.results.table_result_record` (same
replay, duplicate check and history), in the transaction that holds the table's row
lock: two confirmations at the same moment store one match. A contest, or two open
reports that differ, make the table *disputed*; the organiser settles it by entering
the result on the table's page, or by accepting one of the reports
(:func:`report_accept`): either closes every open report, and the table's players
are told by mail.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import CodedError
from federation.models import Player
from federation.permissions import can_write_for_club
from federation.players import player_of
from scoring.services import match_replay, record_check
from tournaments import notices, selectors
from tournaments.errors import TableRejected
from tournaments.models import Table, TableReply, TableReport
from tournaments.services._common import _lock
from tournaments.services.results import record_players_check, table_result_record


class ReportRefused(CodedError):
    """A report, confirmation or contest refused whole (nothing stored)."""

    STATUS_BY_CODE = {
        "report-not-seated": 403,
        "report-no-player": 403,
        "report-unknown": 404,
        "report-not-organiser": 403,
        "report-own": 409,
        "report-closed": 409,
        "table-has-result": 409,
        "round-unpublished": 409,
    }


def record_fingerprint(record: Any) -> str:
    """Two reports are the same result when their records are the same JSON."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def seated_player(table: Table, user: Any) -> Player:
    """The user's player, seated at ``table`` (``ReportRefused`` 403 otherwise)."""
    player = player_of(user)
    rnd = table.round
    if player is None:
        raise ReportRefused("report-no-player")
    if not table.seats.filter(player=player).exists():
        raise ReportRefused("report-not-seated", table=table.number, round=rnd.number)
    return player


def _locked_open(table: Table) -> Table:
    """The table's row, locked until the transaction ends, still waiting for a result
    in a published round (409 otherwise). The tournament's row is locked first, as
    every write of the tournament does (one order of locks: no deadlock)."""
    _lock(table.round.tournament)
    locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    rnd = locked.round
    if locked.match_id is not None:
        raise ReportRefused("table-has-result", table=locked.number, round=rnd.number)
    if not rnd.is_published:
        raise ReportRefused("round-unpublished", round=rnd.number)
    return locked


def report_submit(*, table: Table, user: Any, record: Any) -> TableReport:
    """A seated player reports the table's result. Refused with the engine's error
    when the record does not replay; replaces the player's previous open report."""
    player = seated_player(table, user)
    with transaction.atomic():
        locked = _locked_open(table)
        record_players_check(locked, record)
        record_check(record)
        result = match_replay(record)
        if not result["finished"]:
            raise TableRejected("table-unfinished", table=locked.number, round=locked.round.number)
        TableReport.objects.filter(
            table=locked, reported_by=player, status=TableReport.Status.REPORTED
        ).update(status=TableReport.Status.REPLACED)
        report = TableReport.objects.create(
            table=locked, reported_by=player, record=record, fingerprint=record_fingerprint(record)
        )
        notices.report_waiting(report)
        return report


#: the reports the organiser may accept: waiting for confirmations, or contested
ACCEPTABLE = (TableReport.Status.REPORTED, TableReport.Status.CONTESTED)


def _open_report(
    table: Table, report_id: Any, statuses: tuple[str, ...] = TableReport.OPEN
) -> TableReport:
    try:
        found = (
            TableReport.objects.select_for_update(of=("self",))
            .select_related("reported_by")
            .get(table=table, pk=int(report_id))
        )
    except (TypeError, ValueError, TableReport.DoesNotExist):
        raise ReportRefused("report-unknown", report=str(report_id)[:20]) from None
    if found.status not in statuses:
        raise ReportRefused("report-closed", report=found.pk, status=found.status)
    return found


def report_confirm(*, table: Table, user: Any, report_id: Any) -> TableReport:
    """A seated player confirms another's report; the last confirmation records the
    match (its status is then ``recorded`` and the table has its match)."""
    player = seated_player(table, user)
    with transaction.atomic():
        locked = _locked_open(table)
        report = _open_report(locked, report_id)
        if report.reported_by_id == player.pk:
            raise ReportRefused("report-own")
        TableReply.objects.update_or_create(
            report=report, player=player, defaults={"kind": TableReply.Kind.CONFIRM, "reason": ""}
        )
        others = set(locked.seats.exclude(player_id=report.reported_by_id).values_list("player_id"))
        confirmed = set(
            report.replies.filter(kind=TableReply.Kind.CONFIRM).values_list("player_id")
        )
        if others <= confirmed:
            table_result_record(
                table=locked,
                played_on=selectors.round_day(locked.round),
                record=report.record,
            )
            report.status = TableReport.Status.RECORDED
            report.save(update_fields=["status"])
    return report


def report_contest(*, table: Table, user: Any, report_id: Any, reason: Any) -> TableReport:
    """A seated player contests a report (their own too: withdrawn); the table is then
    disputed until the organiser enters the result or a new report is confirmed."""
    player = seated_player(table, user)
    reason = str(reason or "").strip()[:1000]
    if not reason:
        raise ReportRefused("report-reason-required")
    with transaction.atomic():
        locked = _locked_open(table)
        report = _open_report(locked, report_id)
        TableReply.objects.update_or_create(
            report=report,
            player=player,
            defaults={"kind": TableReply.Kind.CONTEST, "reason": reason},
        )
        report.status = TableReport.Status.CONTESTED
        report.save(update_fields=["status"])
    return report


def report_accept(*, table: Table, user: Any, report_id: Any) -> TableReport:
    """The organiser settles the table by accepting one of its reports (waiting or
    contested): recorded as the confirmations record it (same replay, duplicate check),
    the history naming the organiser and the report; the other reports are settled.
    Under the table's row lock: a second click, or a confirmation at the same moment,
    finds the table with its result (409) and one match is stored."""
    if not can_write_for_club(user, table.round.tournament.club):
        raise ReportRefused("report-not-organiser")
    with transaction.atomic():
        locked = _locked_open(table)
        report = _open_report(locked, report_id, statuses=ACCEPTABLE)
        rnd = locked.round
        name = report.reported_by.public_display_name
        reason = _(
            "Accepted by the organiser: the report of %(player)s (round %(round)s, table %(table)s)."
        ) % {"player": name, "round": rnd.number, "table": locked.number}
        table_result_record(
            table=locked,
            played_on=selectors.round_day(rnd),
            record=report.record,
            submitted_by=user,
            reason=reason,
            accepted=name,
        )
        report.status = TableReport.Status.RECORDED
        report.save(update_fields=["status"])
    return report


def report_standings(report: TableReport) -> list[dict[str, Any]]:
    """The report's result as the engine replays it: per player in rank order, their
    rank, points and score (what the organiser compares before accepting one)."""
    rows = match_replay(report.record).get("standings") or []
    keys = ("player", "rank", "points", "score")
    return [{k: row.get(k) for k in keys} for row in rows]


def disputed_tables(tables: Any) -> list[dict[str, Any]]:
    """For the manage page: each of ``tables`` in dispute, its state (``table_state``)
    with the open reports' results, the reports the organiser may accept first."""
    found = []
    for table in tables:
        if table.match_id is not None or not table.is_disputed:
            continue
        state = table_state(table)
        reports = {r.pk: r for r in table.reports.filter(status__in=ACCEPTABLE)}
        state["reports"] = [
            {**row, "result": report_standings(reports[row["id"]])}
            for row in state["reports"]
            if row["id"] in reports
        ]
        found.append({**state, "table": table})
    return found


def table_state(table: Table) -> dict[str, Any]:
    """The table as its players read it: seats, its match, its reports and replies."""
    reports = table.reports.select_related("reported_by").prefetch_related("replies__player")
    if table.match_id is not None:
        state = "recorded"
    elif table.is_disputed:
        state = "disputed"
    elif any(r.status == TableReport.Status.REPORTED for r in reports):
        state = "reported"
    else:
        state = "open"
    return {
        "round": table.round.number,
        "table": table.number,
        "state": state,
        "players": [s.player.handle for s in table.seats.select_related("player").order_by("seat")],
        "match": table.match_id,
        "reports": [
            {
                "id": r.pk,
                "reported_by": r.reported_by.handle,
                "status": r.status,
                "created_at": r.created_at.isoformat(),
                "record": r.record,
                "confirmed_by": [
                    x.player.handle for x in r.replies.all() if x.kind == TableReply.Kind.CONFIRM
                ],
                "contests": [
                    {"player": x.player.handle, "reason": x.reason}
                    for x in r.replies.all()
                    if x.kind == TableReply.Kind.CONTEST
                ],
            }
            for r in reports
        ],
    }
