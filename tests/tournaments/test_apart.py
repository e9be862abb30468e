"""Keeping players apart: the tournament's option and pairs, through the service, the
adapter, the API and the organiser's pages; unknown handles refused, nothing stored."""

from __future__ import annotations

import datetime as dt

import pytest

from federation.models import Game, Player
from tests.factories import ClubFactory
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.pairing import event_for
from tournaments.services import (
    registrations_add,
    round_pair,
    tournament_apart_set,
    tournament_create,
)

BASE = "/api/v1/tournaments/"


def _create(club, **extra):
    return tournament_create(
        name="Coupe",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4],
        rounds_planned=3,
        seed=7,
        **extra,
    )


@pytest.fixture
def three_clubs(federation):
    """p00..p11 in clubs lyon, nice and metz, four each (p00, p03, p06, p09 in lyon...)."""
    club, handles = federation
    clubs = [club, ClubFactory(slug="nice"), ClubFactory(slug="metz")]
    for k, handle in enumerate(handles):
        Player.objects.filter(handle=handle).update(club=clubs[k % 3])
    return clubs, handles


@pytest.mark.django_db
def test_pairs_are_stored_by_player_and_unknown_handles_refused(federation):
    club, _ = federation
    tournament = _create(club, apart="p00 p01\nP02, @p03\n\np01 p00")
    ids = dict(Player.objects.values_list("handle", "pk"))
    assert tournament.apart_pairs == sorted(
        [sorted([ids["p00"], ids["p01"]]), sorted([ids["p02"], ids["p03"]])]
    )
    with pytest.raises(TournamentError) as caught:
        _create(club, apart=[["p00", "zed"], ["ygg", "p01"]])
    assert caught.value.code == "apart-unknown" and caught.value.status == 400
    assert caught.value.params == {"handles": "zed, ygg"}
    with pytest.raises(TournamentError) as caught:
        _create(club, apart="p00 p01 p02")
    assert caught.value.code == "apart-pair"
    with pytest.raises(TournamentError):
        _create(club, apart="p00 P00")
    assert Tournament.objects.count() == 1  # nothing stored by the refusals
    with pytest.raises(TournamentError):
        tournament_apart_set(tournament=tournament, keep_clubs_apart=True, apart="p00 zed")
    tournament.refresh_from_db()
    assert not tournament.keep_clubs_apart and len(tournament.apart_pairs) == 2


@pytest.mark.django_db
def test_the_event_holds_pairs_and_clubs_only_when_set(three_clubs):
    clubs, handles = three_clubs
    tournament = _create(clubs[0])
    registrations_add(tournament=tournament, handles=handles[:8], check_in=True)
    plain = event_for(tournament, next_round=1).event
    assert "apart" not in plain and "apart_groups" not in plain
    tournament = tournament_apart_set(
        tournament=tournament, keep_clubs_apart=True, apart="p00 p01\np00 p11"
    )
    event = event_for(tournament, next_round=1).event
    assert event["apart"] == [["p00", "p01"]]  # p11 is not registered: left out
    groups = event["apart_groups"]["club"]
    assert sorted(sorted(members) for members in groups.values()) == [
        ["p00", "p03", "p06"],
        ["p01", "p04", "p07"],
        ["p02", "p05"],
    ]
    assert {k: v for k, v in event.items() if not k.startswith("apart")} == plain


@pytest.mark.django_db
def test_club_mates_are_paired_apart(three_clubs, organiser):
    clubs, handles = three_clubs
    tournament = _create(clubs[0], keep_clubs_apart=True)
    registrations_add(tournament=tournament, handles=handles, check_in=True)
    rnd = round_pair(tournament=tournament, by=organiser)
    assert rnd.diagnostics["apart"] == 3  # 4 seats, 3 clubs: one pair a table at least
    for table in rnd.tables.all():
        clubs_at = [seat.player.club_id for seat in table.seats.all()]
        assert len(clubs_at) == len(set(clubs_at)) + 1
    # without the option the listing order seats club-mates together
    other = _create(clubs[0])
    registrations_add(tournament=other, handles=handles, check_in=True)
    assert "apart" not in round_pair(tournament=other, by=organiser).diagnostics


@pytest.mark.django_db
def test_keep_apart_through_the_api(api, organiser, federation, evening):
    api.force_authenticate(organiser)
    create = {
        "name": "Open",
        "game": "divisor",
        "club": "lyon",
        "starts_on": "2026-11-14",
        "table_sizes": [4, 3],
        "rounds_planned": 3,
        "public": True,
        "keep_clubs_apart": True,
        "apart": [["p00", "p01"]],
    }
    refused = api.post(BASE, {**create, "apart": [["p00", "zed"]]}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "apart-unknown"
    assert "zed" in refused.json()["error"]["message"] and not Tournament.objects.exists()
    made = api.post(BASE, create, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["keep_clubs_apart"] is True and body["apart"] == [["p00", "p01"]]
    url = f"{BASE}{body['slug']}/"
    changed = api.patch(url, {"apart": [["p02", "p03"], ["p04", "p05"]]}, format="json")
    assert changed.status_code == 200 and changed.json()["keep_clubs_apart"] is True
    assert changed.json()["apart"] == [["p02", "p03"], ["p04", "p05"]]
    wrong = api.patch(url, {"apart": [["p02", "qux"]]}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert wrong.status_code == 400 and wrong.json()["error"]["params"] == {"handles": "qux"}
    assert "joueurs inconnus qux" in wrong.json()["error"]["message"]
    assert api.patch(url, {"apart": [["p02"]]}, format="json").status_code == 400
    assert api.patch(url, {"keep_clubs_apart": False}, format="json").json()["apart"] == [
        ["p02", "p03"],
        ["p04", "p05"],
    ]
    api.force_authenticate(None)
    public = api.get(url).json()
    assert public["apart"] is None and public["keep_clubs_apart"] is False
    assert api.patch(url, {"keep_clubs_apart": True}, format="json").status_code in (401, 403)


@pytest.mark.django_db
def test_keep_apart_from_the_pages(organiser_client, federation, evening):
    form = {
        "name": "Nuit",
        "game": "divisor",
        "club": "lyon",
        "starts_on": "2026-11-14",
        "format": "swiss",
        "table_sizes": "4, 3",
        "rounds_planned": 3,
        "keep_clubs_apart": "on",
    }
    page = organiser_client.get("/tournaments/new/").content.decode()
    assert "Keep club-mates apart" in page and 'name="apart"' in page
    bad = organiser_client.post("/tournaments/new/", {**form, "apart": "p00 zed\nqux p01"})
    assert bad.status_code == 400
    assert "name unknown players zed, qux" in bad.content.decode()
    assert not Tournament.objects.exists()
    made = organiser_client.post("/tournaments/new/", {**form, "apart": "p00 p01"})
    assert made.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.keep_clubs_apart and len(tournament.apart_pairs) == 1
    manage = f"/tournaments/{tournament.slug}/manage/"
    assert "p00 p01" in organiser_client.get(manage).content.decode()
    refused = organiser_client.post(manage + "apart/", {"apart": "p05 nobody"}, follow=True)
    assert "unknown players nobody" in refused.content.decode()
    organiser_client.post(manage + "apart/", {"apart": "p05 p06"})
    tournament.refresh_from_db()
    assert not tournament.keep_clubs_apart
    assert event_for(tournament, next_round=1).event.get("apart") is None  # none registered
    assert len(tournament.apart_pairs) == 1
