"""An import's rows stored a chunk at a time give what one submission per row gives."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import IntegrityError

from scoring import import_rows
from scoring.imports import import_create, import_report, import_run
from scoring.models import ImportJob, Match, MatchEvent, MatchSeat, Status
from scoring.services import match_record, match_withdraw
from tests.factories import PlayerFactory

pytestmark = pytest.mark.usefixtures("clock")


def divisor(players, points, pips, **extra):
    record = {
        "game": "divisor",
        "rules": {"set": 9},
        "players": players,
        "deals": [
            {
                "summary": {
                    "points": dict(zip(players, points, strict=True)),
                    "pips_left": dict(zip(players, pips, strict=True)),
                }
            }
        ],
    }
    return {**record, **extra}


def lines(*rows) -> bytes:
    return "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows).encode()


def queued(club, user, content) -> ImportJob:
    return import_create(
        club=club,
        content=content,
        file_name="rows.jsonl",
        played_on=dt.date(2026, 11, 14),
        submitted_by=user,
        enqueue=lambda job: None,
    )


def outcomes(report) -> list[tuple]:
    """The report, each match named by the row that stored it (ids differ between runs:
    a refused insert takes a number of the sequence too) or "before"."""
    row_of = {r["match"]: r["row"] for r in report["stored_rows"]}
    stored = [(r["row"], "stored", r["row"]) for r in report["stored_rows"]]
    twins = [
        (r["row"], "duplicate", row_of.get(r["match"], "before")) for r in report["duplicate_rows"]
    ]
    refused = [(r["row"], r["code"], json.dumps(r.get("move"))) for r in report["rejected"]]
    return sorted(stored + twins + refused, key=str)


@pytest.mark.django_db
def test_a_chunk_decides_each_row_as_a_submission_would(club, organiser, players, monkeypatch):
    """The same file imported by chunks (4 rows at a time, so that twins fall in the
    same chunk and in another) and row by row (``match_record`` per row) stores the
    same matches and reports the same rows, in the same order."""
    ana, ben, cem, dan = (p.handle for p in players)
    PlayerFactory(handle="Eve", club=club)
    earlier = match_record(
        club=club,
        played_on=dt.date(2026, 11, 2),
        record=divisor([ana, ben], [20, 7], [0, 5]),
        submitted_by=organiser,
    ).match
    gone = match_record(
        club=club,
        played_on=dt.date(2026, 11, 2),
        record=divisor([cem, dan], [20, 7], [0, 5]),
        submitted_by=organiser,
    ).match
    match_withdraw(match=gone, reason="typo", by=organiser)
    content = lines(
        divisor([ana, ben, cem], [30, 12, 4], [0, 3, 9]),
        {**divisor([ana, ben], [20, 7], [0, 5]), "played_on": "2026-11-02"},  # stored before
        {**divisor([cem, dan], [20, 7], [0, 5]), "played_on": "2026-11-02"},  # withdrawn: new
        divisor([ana, ben, cem], [30, 12, 4], [0, 3, 9]),  # twin of row 1 (same chunk)
        divisor([ana, "zed"], [1, 2], [0, 4]),  # unknown player
        divisor([ana, "ANA"], [1, 2], [0, 4]),  # the same player twice
        divisor(["eve", dan], [8, 2], [0, 4]),  # a handle in another case
        {**divisor([ana, dan], [8, 2], [0, 4]), "played_on": "2026-12-24"},  # in the future
        {**divisor([ana, dan], [8, 2], [0, 4]), "game_number": 0},
        divisor([ana, dan], [8, 2], [0, 4], comment="nice"),  # a key GAMES.md lacks
        '{"game": "divisor", "players": ["ana\\u0000", "ben"]}',  # unsafe text
        "{not json",  # the file's own error
        divisor([ana, ben, cem], [30, 12, 4], [0, 3, 9]),  # twin of row 1 (next chunk)
        divisor([ben, dan], [3, 9], [7, 0]),
    )
    chunked = queued(club, organiser, content)
    first = Match.objects.order_by("-pk").values_list("pk", flat=True).first()
    with monkeypatch.context() as patched:
        patched.setattr("scoring.imports.CHUNK", 4)
        # every chunk stored whole (none falls back to one row at a time)
        patched.setattr("scoring.imports._store_row", lambda job, row: pytest.fail("row by row"))
        by_chunks = import_report(import_run(job_id=chunked.pk))
    assert (by_chunks["status"], by_chunks["done"], by_chunks["total"]) == ("done", 14, 14)
    assert (by_chunks["stored"], by_chunks["duplicates"]) == (4, 3)
    stored = Match.objects.filter(pk__gt=first).order_by("pk")
    chunk_matches = [
        (m.played_on, m.fingerprint, m.counted_month, m.late, m.status, m.verification)
        for m in stored
    ]
    chunk_seats = sorted(
        MatchSeat.objects.filter(match__in=stored).values_list(
            "player__handle", "seat", "score", "rank", "points", "deduction"
        )
    )
    assert MatchEvent.objects.filter(match__in=stored, action="recorded").count() == 4
    assert by_chunks["duplicate_rows"][0] == {"row": 2, "line": 2, "match": earlier.pk}

    # the same file again, row by row (as if the chunk's insert had met a twin)
    Match.objects.filter(pk__gt=first).delete()
    one_by_one = queued(club, organiser, content)

    def raced(new):
        raise IntegrityError("a twin stored meanwhile")

    with monkeypatch.context() as patched:
        patched.setattr(import_rows, "_insert", raced)
        by_rows = import_report(import_run(job_id=one_by_one.pk))
    again = Match.objects.filter(pk__gt=first).order_by("pk")
    assert outcomes(by_rows) == outcomes(by_chunks)
    assert by_rows["rejected"] == by_chunks["rejected"]
    assert [
        (m.played_on, m.fingerprint, m.counted_month, m.late, m.status, m.verification)
        for m in again
    ] == chunk_matches
    seats = MatchSeat.objects.filter(match__in=again)
    assert (
        sorted(seats.values_list("player__handle", "seat", "score", "rank", "points", "deduction"))
        == chunk_seats
    )


@pytest.mark.django_db
def test_a_twin_stored_while_the_chunk_was_read_is_reported_as_its_duplicate(
    club, organiser, players, monkeypatch
):
    ana, ben, cem, _dan = (p.handle for p in players)
    row = divisor([ana, ben, cem], [30, 12, 4], [0, 3, 9])
    job = queued(club, organiser, lines(divisor([ben, cem], [5, 9], [3, 0]), row))
    read, twins = import_rows._outcomes, []

    def another_submission_meanwhile(job, rows):
        decided = read(job, rows)  # row 2 is new: no match of its content yet
        # a submission of row 2's match is stored between the chunk's reads and its insert
        twins.append(
            match_record(
                club=club, played_on=dt.date(2026, 11, 14), record=row, submitted_by=organiser
            ).match
        )
        return decided

    monkeypatch.setattr(import_rows, "_outcomes", another_submission_meanwhile)
    job = import_run(job_id=job.pk)
    assert (job.status, job.stored, job.duplicates, job.rejected) == ("done", 1, 1, [])
    assert job.duplicate_rows == [{"row": 2, "line": 2, "match": twins[0].pk}]
    assert Match.objects.exclude(status=Status.WITHDRAWN).count() == 2


@pytest.mark.django_db
def test_rows_of_an_uploader_who_lost_their_rights(club, organiser, players):
    from federation.models import Membership

    ana, ben, _cem, _dan = (p.handle for p in players)
    job = queued(club, organiser, lines(divisor([ana, ben], [5, 9], [3, 0]), "{bad"))
    Membership.objects.filter(user=organiser).delete()
    job = import_run(job_id=job.pk)
    assert [(r["row"], r["code"]) for r in job.rejected] == [
        (1, "not-organiser"),
        (2, job.rejected[1]["code"]),
    ]
    assert job.rejected[1]["code"] != "not-organiser"  # the file's own error comes first
    assert job.stored == 0 and Match.objects.count() == 0
