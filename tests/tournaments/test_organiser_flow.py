"""The organiser's way through a tournament (issue 19, part 7): publishing, pairing
again and withdrawing a player go through a confirmation page that needs no
JavaScript; refusals name players by their public names; the round shows each
table's result in rank order; the printed divisor sheets carry the sheet's columns;
the organiser's home lists the club's tournaments in progress."""

from __future__ import annotations

import re

import pytest

from federation.models import Player
from tests.tournaments.flow import play_round
from tournaments.models import Registration, Round, Tournament
from tournaments.services import round_pair


@pytest.fixture
def paired(night, organiser):
    return round_pair(tournament=night, by=organiser)


@pytest.mark.django_db
def test_publishing_and_pairing_again_are_confirmed_first(organiser_client, night, paired):
    base = f"/tournaments/{night.slug}/manage/"
    page = organiser_client.get(base).content.decode()
    assert f'href="{base}rounds/1/publish/"' in page and f'href="{base}rounds/1/repair/"' in page

    asked = organiser_client.get(base + "rounds/1/publish/")
    text = asked.content.decode()
    assert asked.status_code == 200 and "Publish round 1 of Soirée Divisor?" in text
    assert "3 tables, 0 byes." in text and 'name="confirm" value="1"' in text
    assert organiser_client.post(base + "rounds/1/publish/").status_code == 200  # asks again
    again = organiser_client.get(base + "rounds/1/repair/").content.decode()
    assert "Pair round 1 of Soirée Divisor again?" in again and "cannot be undone" in again
    assert Round.objects.get().status == Round.Status.PAIRED  # nothing done yet

    done = organiser_client.post(base + "rounds/1/publish/", {"confirm": "1"}, follow=True)
    assert "Round 1 is published." in done.content.decode()
    assert Round.objects.get().status == Round.Status.PUBLISHED

    german = organiser_client.get(base + "rounds/1/repair/", HTTP_ACCEPT_LANGUAGE="de")
    assert "Abbrechen" in german.content.decode()


@pytest.mark.django_db
def test_withdrawing_a_player_is_confirmed_and_named_publicly(organiser_client, night, paired):
    play_round(paired, seed=1)
    leaving = Registration.objects.get(tournament=night, player__handle="p03")
    Player.objects.filter(handle="p03").update(display_name="Nils Olsen", public_name=False)
    url = f"/tournaments/{night.slug}/manage/registrations/{leaving.pk}/withdraw/"
    page = organiser_client.get(f"/tournaments/{night.slug}/manage/").content.decode()
    assert f'<form method="get" action="{url}" class="withdraw">' in page

    asked = organiser_client.get(url, {"from_round": "3"}, HTTP_ACCEPT_LANGUAGE="fr")
    text = asked.content.decode()
    assert asked.status_code == 200 and "N. O." in text and "p03" not in text
    assert 'name="from_round" value="3"' in text and "Annuler" in text
    leaving.refresh_from_db()
    assert leaving.withdrawn_from_round is None

    done = organiser_client.post(url, {"from_round": "3", "confirm": "1"}, follow=True)
    leaving.refresh_from_db()
    assert done.status_code == 200 and leaving.withdrawn_from_round == 3


@pytest.mark.django_db
def test_refusals_name_players_by_their_public_names(organiser_client, night, paired):
    play_round(paired, seed=1)
    Player.objects.filter(handle="p05").update(display_name="Océane Durand", public_name=False)
    base = f"/tournaments/{night.slug}/manage/"
    refused = organiser_client.post(base + "late/", {"handle": "p05"}, follow=True)
    text = refused.content.decode()
    assert "O. D. is already registered." in text and "p05 is already" not in text
    french = organiser_client.post(
        base + "late/", {"handle": "p05"}, follow=True, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "O. D." in french and "p05 est" not in french


@pytest.mark.django_db
def test_a_round_shows_each_tables_result_in_rank_order(client, night, paired):
    play_round(paired, seed=2)
    text = client.get(f"/tournaments/{night.slug}/rounds/1/").content.decode()
    table = paired.tables.get(number=1)
    seats = sorted(table.match.seats.all(), key=lambda seat: seat.rank)
    shown = re.search(r'<ol class="result-ranks">(.*?)</ol>', text, re.S).group(1)
    listed = re.findall(r"<li>(\d)\. ([^<(]+?) \((-?\d+)\)</li>", shown)
    assert [int(rank) for rank, _name, _score in listed] == [seat.rank for seat in seats]
    assert [int(score) for _r, _n, score in listed] == [seat.score for seat in seats]


@pytest.mark.django_db
def test_printed_divisor_sheets_carry_the_sheet_columns(organiser_client, night, paired):
    text = organiser_client.get(f"/tournaments/{night.slug}/rounds/1/sheets/").content.decode()
    assert text.count('<table class="score-sheet divisor-sheet">') == 3  # one per table
    for column in ("Player (seat)", "Tile laid: ends sum", "Quotient (points)", "Pips left"):
        assert f"<th>{column}</th>" in text
    seat_one = paired.tables.get(number=1).seats.get(seat=0).player
    assert f"<li><strong>1</strong> = {seat_one.public_display_name}" in text
    french = organiser_client.get(
        f"/tournaments/{night.slug}/rounds/1/sheets/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Points en main" in french


@pytest.mark.django_db
def test_an_organisers_home_shows_their_actions_and_tournaments(client, night, organiser):
    anonymous = client.get("/").content.decode()
    assert "Your club's work" not in anonymous and "Soirée Divisor" not in anonymous
    client.force_login(organiser)
    home = client.get("/").content.decode()
    for link in ("/matches/submit/", "/matches/import/", "/matches/mine/", "/tournaments/new/"):
        assert f'href="{link}"' in home
    assert f'href="/tournaments/{night.slug}/manage/"' in home
    assert 'href="/matches/?club=lyon"' in home
    Tournament.objects.filter(pk=night.pk).update(status=Tournament.Status.FINISHED)
    finished = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Soirée Divisor" not in finished and "Saisir un résultat" in finished
