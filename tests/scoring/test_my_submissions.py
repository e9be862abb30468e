""" "My submissions": an organiser's own matches with what became of them, newest first
in keyset pages, and their bulk imports with their counters."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.imports import import_create, import_run
from scoring.services import match_correct, match_record, match_withdraw
from scoring.submissions import PAGE_SIZE
from tests.factories import OrganiserFactory, PlayerFactory

pytestmark = pytest.mark.usefixtures("clock")

CSV = b"""game,players,played_on,sections
9tka,ana ben cem,2026-11-02,4 3 1
9tka,ana ben cem,2026-11-02,4 3 1
9tka,ana zed cem,2026-11-02,4 3 1
"""


@pytest.fixture
def two_clubs_players(club, other_club):
    return [
        PlayerFactory(handle="ana", club=club, display_name="Ana Lima", public_name=False),
        PlayerFactory(handle="ben", club=club, display_name="Ben Roth"),
        PlayerFactory(handle="cem", club=other_club, display_name="Cem Yilmaz", public_name=False),
    ]


def astronomy(winner: int = 0) -> dict:
    return {
        "game": "astronomy",
        "rules": {"size": 5},
        "players": ["ana", "ben"],
        "summary": {"winner": ["ana", "ben"][winner], "moves": 9 - winner},
    }


def record(club, user, day: int, number: int = 1, winner: int = 0):
    return match_record(
        club=club,
        played_on=dt.date(2026, 11, day),
        record=astronomy(winner),
        submitted_by=user,
        game_number=number,
    ).match


@pytest.mark.django_db
def test_the_page_needs_a_login(client, games):
    response = client.get("/matches/mine/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
def test_only_ones_own_matches_with_their_status(client, club, organiser, two_clubs_players):
    colleague = OrganiserFactory(club=club).user
    kept = record(club, organiser, 2)
    withdrawn = record(club, organiser, 3)
    corrected = record(club, organiser, 4)
    theirs = record(club, colleague, 5)
    match_withdraw(match=withdrawn, reason="wrong table", by=organiser)
    match_correct(match=corrected, record=astronomy(winner=1), reason="typo", by=organiser)
    client.force_login(organiser)
    page = client.get("/matches/mine/").content.decode()
    for match in (kept, withdrawn, corrected):
        assert f'href="/matches/{match.pk}/"' in page
    assert f'href="/matches/{theirs.pk}/"' not in page  # a colleague's: not mine
    assert page.index(f"/matches/{corrected.pk}/") < page.index(f"/matches/{kept.pk}/")
    assert 'class="badge withdrawn">withdrawn' in page
    assert 'class="badge corrected">corrected' in page and "version 2" in page
    # the club's player by name (its organiser knows them), another club's by initials
    assert "Ana Lima, Ben Roth" in page
    assert 'href="/matches/mine/"' in page  # in the menu


@pytest.mark.django_db
def test_keyset_pages_newest_first(client, club, organiser, two_clubs_players):
    matches = [
        record(club, organiser, 1 + n % 19, number=1 + n // 19) for n in range(PAGE_SIZE + 3)
    ]
    client.force_login(organiser)
    first = client.get("/matches/mine/")
    rows = first.context["rows"]
    assert [r["match"].pk for r in rows] == [m.pk for m in reversed(matches)][:PAGE_SIZE]
    before = first.context["next_before"]
    assert before == rows[-1]["match"].pk and f'href="?before={before}"' in first.content.decode()
    second = client.get(f"/matches/mine/?before={before}")
    assert [r["match"].pk for r in second.context["rows"]] == [m.pk for m in matches[2::-1]]
    assert second.context["next_before"] is None
    assert client.get("/matches/mine/?before=junk").status_code == 400  # not a number


@pytest.mark.django_db
def test_the_query_count_does_not_grow_with_the_page(
    client, club, organiser, two_clubs_players, django_assert_max_num_queries
):
    for n in range(PAGE_SIZE):
        record(club, organiser, 1 + n % 19, number=1 + n // 19)
    client.force_login(organiser)
    with django_assert_max_num_queries(8):
        response = client.get("/matches/mine/")
    assert len(response.context["rows"]) == PAGE_SIZE


@pytest.mark.django_db
def test_ones_imports_with_their_counters(client, club, organiser, two_clubs_players):
    job = import_create(
        club=club,
        content=CSV,
        file_name="night.csv",
        played_on=dt.date(2026, 11, 14),
        submitted_by=organiser,
        enqueue=lambda job: None,
    )
    import_run(job_id=job.pk)
    client.force_login(organiser)
    response = client.get("/matches/mine/")
    (shown,) = response.context["imports"]
    assert (shown.status, shown.done, shown.stored, shown.duplicates) == ("done", 3, 1, 1)
    assert shown.rejected_count == 1
    page = response.content.decode()
    assert f'href="/matches/import/{job.pk}/"' in page and "night.csv" in page
    # the import's stored match is one of my submissions
    assert len(response.context["rows"]) == 1
    other = OrganiserFactory(club=club).user
    client.force_login(other)
    response = client.get("/matches/mine/")
    assert response.context["imports"] == [] and response.context["rows"] == []
    assert "You have not submitted any match yet." in response.content.decode()
