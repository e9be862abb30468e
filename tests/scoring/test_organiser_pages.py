"""The organiser's way through the match pages (issue 19, part 7): the list's filter
form and its heading, filters kept across pages and refused in words, results in
rank order, a withdrawal confirmed first without JavaScript, the blank divisor sheet."""

from __future__ import annotations

import copy
import datetime as dt
import re

import pytest

from scoring.models import Match
from scoring.services import match_record
from tests.factories import OrganiserFactory, PlayerFactory
from tests.samples import DIVISOR_SUMMARY as SUMMARY
from tests.scoring.test_list_queries import HANDLES, record_matches

pytestmark = pytest.mark.usefixtures("month_end")


@pytest.fixture
def initialled_players(club):
    """ana, ben, cem and dan; dan (Daniel Nagy) shown by his initials only."""
    found = [PlayerFactory(handle=handle, club=club) for handle in HANDLES]
    dan = found[3]
    dan.display_name, dan.public_name = "Daniel Nagy", False  # initials only
    dan.save()
    return found


@pytest.fixture
def reversed_match(club, initialled_players):
    """ana wins, cem second (fewer pips left), ben last; seated cem, ben, ana."""
    record = copy.deepcopy(SUMMARY)
    record["players"] = ["cem", "ben", "ana"]
    return match_record(club=club, played_on=dt.date(2026, 11, 2), record=record).match


@pytest.mark.django_db
def test_the_filter_form_names_what_is_shown_and_survives_paging(client, club, initialled_players):
    record_matches(club, 0, 60)  # 30 in October, 30 in November
    page = client.get("/matches/?game=divisor&club=lyon&month=2026-10")
    text = page.content.decode()
    assert page.status_code == 200
    heading = "Divisor dominoes matches of Domino Club de Lyon, October 2026"
    assert f"<h1>{heading}</h1>" in text and f"<title>{heading}" in text
    assert '<option value="divisor" selected>' in text
    assert '<option value="lyon" selected>' in text and 'value="2026-10"' in text
    older = re.search(r'href="(\?[^"]+)" rel="next"', text)
    assert older, "30 matches make two pages"
    link = older.group(1).replace("&amp;", "&")
    assert "game=divisor" in link and "club=lyon" in link and "month=2026-10" in link
    second = client.get(f"/matches/{link}").content.decode()
    assert f"<h1>{heading}</h1>" in second
    days = re.findall(r">(2026-\d\d)-\d\d</a></td>", second)
    assert days and set(days) == {"2026-10"}  # the filters kept on the second page

    with_player = client.get("/matches/?player=DAN&month=2026-11").content.decode()
    assert "<h1>Matches with D. N., November 2026</h1>" in with_player  # a public name

    french = client.get("/matches/?game=divisor&month=2026-10", HTTP_ACCEPT_LANGUAGE="fr")
    assert "<h1>Matchs de Dominos diviseurs, octobre 2026</h1>" in french.content.decode()


@pytest.mark.django_db
def test_filters_that_name_nothing_are_said_at_their_field(client, club, initialled_players):
    record_matches(club, 0, 3)
    page = client.get("/matches/?game=chess&club=nowhere&player=nobody99&month=2026-13")
    text = page.content.decode()
    assert page.status_code == 400
    assert "There is no game “chess”." in text and "There is no club “nowhere”." in text
    assert "There is no player with the handle “nobody99”." in text
    assert "Give the month as YYYY-MM" in text and "2026-13" in text
    assert "/matches/1/" not in text and 'class="match-table' not in text  # nothing listed
    german = client.get("/matches/?month=März", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 400 and "JJJJ-MM" in german.content.decode()


@pytest.mark.django_db
def test_result_lists_show_players_in_rank_order_with_their_scores(client, reversed_match):
    seats = {seat.player.handle: seat for seat in reversed_match.seats.all()}
    assert [seats[h].seat for h in ("cem", "ben", "ana")] == [0, 1, 2]
    for path in ("/matches/", "/", "/players/ben/"):
        text = client.get(path).content.decode()
        cell = re.search(r'<td class="wide">(.*?)</td>', text, re.S).group(1)
        names = re.findall(r"(\d)\. <a href=\"/players/(\w+)/\">", cell)
        assert names == [("1", "ana"), ("2", "cem"), ("3", "ben")], path  # not seat order
        assert f"({seats['ana'].score})" in cell


@pytest.mark.django_db
def test_withdrawing_a_match_is_confirmed_first_without_javascript(client, club, reversed_match):
    url = f"/matches/{reversed_match.pk}/withdraw/"
    assert client.get(url).status_code == 302  # log in first
    client.force_login(OrganiserFactory(club=club).user)
    page = client.get(f"/matches/{reversed_match.pk}/").content.decode()
    assert f'<form method="get" action="{url}"' in page  # the page's form asks first

    asked = client.get(url, {"reason": "entered twice"})
    text = asked.content.decode()
    assert asked.status_code == 200 and Match.objects.get().status == "recorded"
    assert f"Withdraw match #{reversed_match.pk}?" in text and "cannot be undone" in text
    assert "1. Player Number" in text  # who played, in rank order
    assert 'name="confirm" value="1"' in text and "entered twice" in text

    unconfirmed = client.post(url, {"reason": "entered twice"})
    assert unconfirmed.status_code == 200 and Match.objects.get().status == "recorded"
    empty = client.post(url, {"reason": "", "confirm": "1"})
    assert empty.status_code == 400 and Match.objects.get().status == "recorded"
    done = client.post(url, {"reason": "entered twice", "confirm": "1"})
    assert done.status_code == 302 and done["Location"] == f"/matches/{reversed_match.pk}/"
    assert Match.objects.get().status == "withdrawn"
    assert client.get(url).status_code == 403  # nothing left to withdraw

    french = client.get(f"/matches/{reversed_match.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "retiré" in french.content.decode()


@pytest.mark.django_db
def test_a_french_organiser_confirms_a_withdrawal_in_french(client, club, reversed_match):
    client.force_login(OrganiserFactory(club=club).user)
    url = f"/matches/{reversed_match.pk}/withdraw/"
    text = client.get(url, {"reason": "doublon"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Retirer le match n° {reversed_match.pk} ?" in text
    assert "Retirer le match</button>" in text and "Annuler" in text


@pytest.mark.django_db
def test_the_blank_divisor_sheet_has_the_sheet_columns(client, games):
    text = client.get("/matches/enter/divisor/sheet/print/?seats=3").content.decode()
    for column in ("Player (seat)", "Tile laid: ends sum", "Quotient (points)"):
        assert f"<th>{column}</th>" in text
    assert "<th>Draw / pass</th>" in text and "<th>Pips left</th>" in text
    assert text.count('<tr><td class="num">') == 30  # one row per turn
    assert len(re.findall(r"<li><strong>\d</strong> =", text)) == 3
