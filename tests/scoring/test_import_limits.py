"""Bulk imports under bad input (issue 20, defects 7, 8 and 9): limits checked while
reading, text the database cannot store refused at its row, Unicode digits, huge
cells, and an Idempotency-Key bound to the file's bytes."""

from __future__ import annotations

import datetime as dt
import json
import time

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import BOUNDARY, encode_multipart

from scoring.entry.files import MAX_CELL, MAX_FILE_BYTES, MAX_ROWS
from scoring.imports import import_report, import_run
from scoring.models import ImportJob
from tests.scoring.test_import import CSV, upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def running_noon():
    """20 November, noon, the clock running (the limits are timed)."""
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=True):
        yield


ROW = {
    "game": "9tka",
    "players": ["ana", "ben", "cem"],
    "summary": {"sections": {"ana": 4, "ben": 3, "cem": 1}},
}
#: the same match, another result
ROW2 = {**ROW, "summary": {"sections": {"ana": 2, "ben": 2, "cem": 2}}}


def _lines(*rows: object) -> bytes:
    return "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows).encode()


def _report(api, answer) -> dict:
    assert answer.status_code == 202, answer.content
    job_id = answer.json()["id"]
    import_run(job_id=job_id)
    return import_report(ImportJob.objects.get(pk=job_id))


def _codes(report: dict) -> list[tuple[int, str]]:
    return [(item["row"], item["code"]) for item in report["rejected"]]


def test_text_the_database_cannot_store_is_refused_at_its_row(
    api, organiser, players, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    content = _lines(
        ROW,
        {**ROW, "players": ["ana\u0000", "ben", "cem"]},  # json.dumps spells it \u0000
        json.dumps(ROW).replace('"cem"]', '"\\udc80"]'),
        {**ROW, "game_number": 2, "x\u0000": 1},  # a key
        {"record": ROW, "game_number": 3, "n\u0000": 1},  # a key quoted by the refusal
        {**ROW2, "game_number": 4, "note": "😀"},  # a pair is fine
    )
    with django_capture_on_commit_callbacks(execute=False):
        report = _report(api, upload(api, content=content, name="night.jsonl"))
    assert _codes(report) == [
        (2, "import-unsafe-text"),
        (3, "import-unsafe-text"),
        (4, "import-unsafe-text"),
        (5, "import-unknown-key"),
        (6, "unknown-field"),  # read, then refused by the service like any record
    ]
    assert report["rejected"][0]["message"].startswith("record.players[0] holds a NUL")
    assert "\u0000" not in json.dumps(report["rejected"], ensure_ascii=False)
    assert report["stored"] == 1
    # a CSV: a raw NUL in a cell, in a column's name
    csv_nul = b"game,players,sections\n9tka\x00,ana ben cem,4 3 1\n"
    with django_capture_on_commit_callbacks(execute=False):
        report = _report(api, upload(api, content=csv_nul))
    assert _codes(report) == [(1, "unknown-game")]
    refused = upload(
        api,
        content=b"game,players,x\x00y\n9tka,ana ben cem,1\n",
        headers={"HTTP_IDEMPOTENCY_KEY": "nul-column"},
    )
    assert refused.status_code == 400  # its answer, kept for the key, holds no NUL
    assert refused.json()["error"]["code"] == "import-unknown-column"


def test_unicode_digits_in_a_game_number_are_refused_at_the_row(
    api, organiser, players, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    content = b"game,players,game_number,sections\n9tka,ana ben cem,\xc2\xb2,4 3 1\n"
    content += "9tka,ana ben cem,٣,4 3 1\n9tka,ana ben cem,2,4 3 1\n".encode()
    with django_capture_on_commit_callbacks(execute=False):
        report = _report(api, upload(api, content=content))
    assert _codes(report) == [(1, "bad-field"), (2, "bad-field")]
    assert report["stored"] == 1
    lines = _lines({**ROW, "game_number": "²"}, {**ROW, "game_number": "9" * 5000})
    with django_capture_on_commit_callbacks(execute=False):
        report = _report(api, upload(api, content=lines, name="n.jsonl"))
    assert _codes(report) == [(1, "bad-field"), (2, "bad-field")]


def test_a_cell_over_the_limit_is_refused_at_its_row(
    api, organiser, players, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    content = (
        b"game,players,sections\n"
        + b'9tka,ana ben cem,"'
        + b"1 " * 70_000
        + b'"\n'  # over csv's 131,072
        + b"9tka,ana ben cem,"
        + b"1 " * MAX_CELL
        + b"\n"  # over ours
        + b"9tka,ana ben cem,4 3 1\n"
    )
    with django_capture_on_commit_callbacks(execute=False):
        report = _report(api, upload(api, content=content))
    assert _codes(report) == [(1, "import-cell-too-long"), (2, "import-cell-too-long")]
    assert report["rejected"][0]["line"] == 2 and report["stored"] == 1
    assert str(MAX_CELL) in report["rejected"][0]["message"]


def _timed(api, content: bytes, name: str = "big.jsonl"):
    """The upload's answer and how long the server took (the body built beforehand)."""
    body = encode_multipart(
        BOUNDARY, {"club": "lyon", "file": SimpleUploadedFile(name, content, "text/plain")}
    )
    kind = f"multipart/form-data; boundary={BOUNDARY}"
    started = time.perf_counter()
    answer = api.post("/api/v1/imports/", data=body, content_type=kind)
    return answer, time.perf_counter() - started


def test_a_ten_megabyte_file_of_any_shape_is_answered_within_two_seconds(
    api, organiser, players, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    # the process's first request loads the URLconf and the views: not the upload's time
    assert upload(api, content=b"").status_code == 400
    size = MAX_FILE_BYTES - 200 * 1024
    shapes = {
        "the red team's JSON lines": (b"{}\n" * (size // 3), 400, "import-too-many-rows"),
        "a JSON array": (b"[" + b"0," * (size // 2) + b"0]", 400, "import-too-many-rows"),
        "blank CSV rows": (
            b"game,players\n" + b",,,\n" * (size // 4),
            400,
            "import-too-many-lines",
        ),
        "one huge cell": (b'game,players\n9tka,"' + b"x" * size + b'"', 202, None),
    }
    for name, (content, status, code) in shapes.items():
        with django_capture_on_commit_callbacks(execute=False):
            answer, seconds = _timed(api, content)
        assert answer.status_code == status, (name, answer.content[:300])
        if code:
            assert answer.json()["error"]["code"] == code, name
        assert seconds < 2.0, (name, seconds)
        print(f"{name}: {len(content) / 1e6:.1f} MB answered {status} in {seconds:.3f} s")
    # 2,000 rows, the most a file may hold, are taken; one more is refused whole
    rows = [{**ROW, "game_number": n % 999 + 1, "played_on": "2026-11-02"} for n in range(2000)]
    with django_capture_on_commit_callbacks(execute=False):
        answer, seconds = _timed(api, _lines(*rows))
    assert answer.status_code == 202 and seconds < 2.0, seconds
    print(f"2,000 rows: answered 202 in {seconds:.3f} s")
    assert ImportJob.objects.get(pk=answer.json()["id"]).total == MAX_ROWS
    answer, seconds = _timed(api, _lines(*rows, ROW))
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "import-too-many-rows"


def test_a_file_over_the_limit_is_refused_before_it_is_read(api, organiser, players):
    api.force_authenticate(organiser)
    answer = upload(api, content=b"{}\n" * (MAX_FILE_BYTES // 3 + 1))
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "import-too-large"
    # announced too large: refused on its Content-Length alone, body unread
    started = time.perf_counter()
    announced = api.post(
        "/api/v1/imports/",
        data=b"x",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(20 * MAX_FILE_BYTES),
    )
    assert announced.status_code == 413 and time.perf_counter() - started < 1
    assert ImportJob.objects.count() == 0


def test_the_idempotency_key_covers_the_files_bytes(
    api, organiser, players, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    key = {"HTTP_IDEMPOTENCY_KEY": "night-2"}
    other = CSV.replace(b"4 3 1", b"3 3 2")
    with django_capture_on_commit_callbacks(execute=False):
        first = upload(api, headers=key)
        replay = upload(api, headers=key)
        changed = upload(api, content=other, headers=key)  # same name, other bytes
    assert first.status_code == replay.status_code == 202
    assert replay.json() == first.json() and replay["Idempotent-Replayed"] == "true"
    assert changed.status_code == 422, changed.content
    assert changed.json()["error"]["code"] == "idempotency-key-reused"
    assert ImportJob.objects.count() == 1
    # the file's bytes are read again by the view after they are hashed
    assert ImportJob.objects.get().total == 5


def test_the_import_page_refuses_too_much_before_reading_it(client, organiser, players):
    client.force_login(organiser)
    big = SimpleUploadedFile("big.jsonl", b"{}\n" * (MAX_FILE_BYTES // 3 + 1))
    answer = client.post(
        "/matches/import/", {"club": "lyon", "played_on": "2026-11-14", "file": big}
    )
    assert answer.status_code in (400, 413)
    assert "10 MB" in answer.content.decode()
    assert ImportJob.objects.count() == 0
