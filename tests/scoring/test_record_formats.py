"""The record formats inside the project: every example of ``/help/formats/`` and of
``docs/record-formats.md`` is replayed by the engine (and the CSV read by the import),
the page speaks three languages, and the entry pages link to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.engine import replay
from scoring.entry.files import COLUMNS, read_file
from scoring.formats import CSV_EXAMPLE, GAMES, examples

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "record-formats.md"


def test_every_example_is_a_record_the_engine_accepts():
    seen = set()
    for example in examples():
        out = replay(example.record)
        assert out["valid"], (example.game, example.kind, out["error"])
        assert out["finished"] == example.finished, (example.game, example.kind)
        seen.add((example.game, example.kind))
    assert {game for game, _ in seen} == set(GAMES)
    assert {(game, "summary") for game in GAMES} <= seen
    assert {(game, "full") for game in GAMES} <= seen and ("divisor", "sheet") in seen


def test_the_csv_example_has_a_valid_row_of_every_game():
    rows = read_file(CSV_EXAMPLE.encode())
    assert all(row.error is None and replay(row.record)["valid"] for row in rows)
    assert {row.record["game"] for row in rows} == set(GAMES)
    header = CSV_EXAMPLE.splitlines()[0].split(",")
    assert {c for columns in COLUMNS.values() for c in columns} <= set(header)


def test_the_doc_shows_the_same_records_and_each_replays():
    doc = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
    assert len(blocks) == len(examples())
    for block, example in zip(blocks, examples(), strict=True):
        assert block.strip() == example.text
    assert CSV_EXAMPLE.strip() in doc
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/record-formats.md" in readme and "GAMES.md" not in readme


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Record formats"),
        ("fr", "Formats des feuilles de match"),
        ("de", "Formate der Partieprotokolle"),
    ],
)
def test_the_page_in_three_languages(client, games, language, heading):
    response = client.get("/help/formats/", HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 200 and heading in page
    assert page.count('<pre class="record">') == len(examples()) + 1
    assert "&quot;target_bonus&quot;: true" in page and 'id="csv"' in page


@pytest.mark.django_db
def test_the_entry_pages_link_to_the_formats_and_nothing_names_games_md(client, organiser):
    client.force_login(organiser)
    for path in (
        "/matches/enter/divisor/sheet/",
        "/matches/enter/dominyam/",
        "/matches/submit/",
        "/matches/import/",
    ):
        page = client.get(path).content.decode()
        assert 'href="/help/formats/"' in page, path
        assert "GAMES.md" not in page, path
    for template in (ROOT / "templates").rglob("*.html"):
        assert "GAMES.md" not in template.read_text(encoding="utf-8"), template
