"""A match's page through its template in four queries (issue 23, cold pages): the match with its game and
club, its seats with their players, its events (read once for the history and for the
lists that counted it) and those lists. What it shows is what the former reads gave:
the events oldest first with their authors, the record's text in the organisers'
correction form."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from quotient import views
from quotient.demo import rename_players
from scoring.engine.divisor import random_record
from scoring.models import Match
from scoring.services import match_correct, match_record, match_withdraw

HANDLES = ["ana", "ben", "cem", "dan"]


def stored(club, seed: int, seats: int) -> Match:
    record = random_record(seed, players=seats, set=6)
    record = rename_players(record, dict(zip(record["players"], HANDLES, strict=False)))
    return match_record(club=club, played_on=dt.date(2026, 11, 2), record=record).match


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_match_page_reads_four_queries(
    client, club, players, organiser, evening, language, monkeypatch
):
    """The template's page (its organisers' and its players'; anyone else's is one
    query, ``test_match_page_rows``)."""
    monkeypatch.setattr(views, "match_html", lambda request, pk: None)
    match = stored(club, 1, 4)
    corrected = stored(club, 2, 3)
    record = random_record(3, players=3, set=6)
    record = rename_players(record, dict(zip(record["players"], HANDLES, strict=False)))
    match_correct(match=corrected, record=record, reason="a <typo> & more", by=organiser)
    match_withdraw(match=corrected, reason="gone", by=organiser)
    for shown in (match, corrected):
        with CaptureQueriesContext(connection) as captured:
            page = client.get(f"/matches/{shown.pk}/", HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        assert len(captured) == 4, [query["sql"][:80] for query in captured.captured_queries]
        events = list(shown.events.select_related("by").order_by("at", "id"))
        assert [row["event"] for row in page.context["events"]] == events
        assert [row["by"] for row in page.context["events"]] == [""] * len(events)
    assert b"a &lt;typo&gt; &amp; more" in page.content


@pytest.mark.django_db
def test_the_organisers_form_shows_the_record(client, club, players, organiser, evening):
    match = stored(club, 4, 2)
    client.force_login(organiser)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    match.refresh_from_db()
    assert escape(json.dumps(match.record, indent=1, ensure_ascii=False)) in page
