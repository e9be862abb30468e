""" "My submissions" in a real browser: an organiser reaches it from the menu, sees
the matches they entered with their status and their imports with their counters, on
a 390 px phone and a desktop, asking no other host; and the import form refuses a
file over 10 MB before sending it."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.browser.conftest import DESKTOP, log_in, overflow, screenshot

PASSWORD = "secret-pass-123"
CSV = b"""game,players,played_on,sections
9tka,ana ben cem,2026-11-02,4 3 1
9tka,ana ben cem,2026-11-02,4 3 1
9tka,ana zed cem,2026-11-02,4 3 1
"""


@pytest.fixture
def work(games):
    """marie organises Lyon; she entered three matches (one withdrawn, one corrected)
    and imported a file with a duplicate and a bad row."""
    from scoring.imports import import_create, import_run
    from scoring.services import match_correct, match_record, match_withdraw
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    for handle, name in (("ana", "Ana Lima"), ("ben", "Benedikt Rothenberger-Schmidt")):
        PlayerFactory(handle=handle, club=club, display_name=name)
    PlayerFactory(handle="cem", club=club, display_name="Cem Yilmaz")
    marie = OrganiserFactory(user=UserFactory(username="marie"), club=club).user

    def record(day: int, winner: str, moves: int):
        return match_record(
            club=club,
            played_on=dt.date(2026, 11, day),
            submitted_by=marie,
            record={
                "game": "astronomy",
                "rules": {"size": 5},
                "players": ["ana", "ben"],
                "summary": {"winner": winner, "moves": moves},
            },
        ).match

    matches = [record(2, "ana", 9), record(3, "ana", 9), record(4, "ana", 9)]
    match_withdraw(match=matches[1], reason="wrong table", by=marie)
    corrected = {
        "game": "astronomy",
        "rules": {"size": 5},
        "players": ["ana", "ben"],
        "summary": {"winner": "ben", "moves": 8},
    }
    match_correct(match=matches[2], record=corrected, reason="typo", by=marie)
    job = import_create(
        club=club,
        content=CSV,
        file_name="a-rather-long-file-name-from-the-club-laptop-2026-11.csv",
        played_on=dt.date(2026, 11, 14),
        submitted_by=marie,
        enqueue=lambda job: None,
    )
    import_run(job_id=job.pk)
    return {"matches": matches, "job": job}


def test_an_organiser_finds_their_submissions_from_the_menu(
    page, live_server, work, foreign_requests
):
    log_in(page, live_server, "marie", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    page.click("header summary")
    page.click("header a:has-text('My submissions')")
    page.wait_for_url(re.compile(r".*/matches/mine/$"))
    rows = page.locator("table.submissions tbody tr")
    assert rows.count() == 4  # three entered, one imported
    corrected, withdrawn = work["matches"][2], work["matches"][1]
    text = page.inner_text("table.submissions")
    assert "withdrawn" in text and "corrected" in text and "version 2" in text
    assert "Ana Lima, Benedikt Rothenberger-Schmidt" in text
    imports = page.inner_text("table.imports")
    assert "done" in imports and "3 / 3" in imports
    screenshot(page, "phone-my-submissions")
    assert overflow(page) == 0
    page.set_viewport_size(DESKTOP)
    screenshot(page, "desktop-my-submissions")
    assert overflow(page) == 0
    page.click(f"a[href='/matches/{corrected.pk}/']")
    page.wait_for_url(re.compile(rf".*/matches/{corrected.pk}/$"))
    page.go_back()
    page.click(f"a[href='/matches/import/{work['job'].pk}/']")
    page.wait_for_url(re.compile(rf".*/matches/import/{work['job'].pk}/$"))
    assert page.inner_text("[data-field=stored]") == "1"
    assert withdrawn.pk and foreign_requests == []


def test_the_import_form_refuses_a_file_over_10_mb_before_sending(
    page, live_server, work, tmp_path
):
    from scoring.models import ImportJob

    log_in(page, live_server, "marie", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    page.goto(f"{live_server.url}/matches/import/")
    big = tmp_path / "huge.csv"
    big.write_bytes(b"game,players\n" + b"x" * (10 * 1024 * 1024))
    page.set_input_files("input[name=file]", str(big))
    message = page.eval_on_selector("input[name=file]", "input => input.validationMessage")
    assert message == "The file is larger than 10 MB."
    page.click("button.primary")
    assert page.url.endswith("/matches/import/")  # the browser did not send it
    assert ImportJob.objects.count() == 1
