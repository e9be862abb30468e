"""The tournament API: reads, writes for the club's organisers, refusals, idempotency."""

from __future__ import annotations

import pytest

from tests.factories import OrganiserFactory
from tests.tournaments.flow import play_round
from tournaments import engine
from tournaments.models import Round, Tournament
from tournaments.pairing import event_for
from tournaments.services import round_pair

BASE = "/api/v1/tournaments/"

CREATE = {
    "name": "Open de Lyon",
    "game": "divisor",
    "club": "lyon",
    "starts_on": "2026-11-14",
    "format": "swiss",
    "table_sizes": [4, 3],
    "rounds_planned": 3,
    "public": True,
    "seed": 7,
}


@pytest.mark.django_db
def test_an_organiser_runs_a_tournament_through_the_api(api, organiser, federation, evening):
    api.force_authenticate(organiser)
    made = api.post(BASE, CREATE, format="json")
    assert made.status_code == 201, made.content
    slug = made.json()["slug"]
    assert made.json()["table_sizes"] == [4, 3] and made.json()["status"] == "registration"
    wrong = api.post(BASE, {**CREATE, "game": "trimorp"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["error"]["code"] == "table-sizes-for-game"

    unknown = api.post(f"{BASE}{slug}/registrations/", {"handles": ["p00", "zed"]}, format="json")
    assert unknown.status_code == 400 and unknown.json()["error"]["params"] == {"handles": "zed"}
    handles = [f"p{n:02d}" for n in range(12)]
    added = api.post(
        f"{BASE}{slug}/registrations/", {"handles": handles, "check_in": True}, format="json"
    )
    assert added.status_code == 201 and len(added.json()["added"]) == 12

    paired = api.post(f"{BASE}{slug}/rounds/", format="json", HTTP_IDEMPOTENCY_KEY="pair-1")
    assert paired.status_code == 201, paired.content
    body = paired.json()
    assert body["number"] == 1 and body["status"] == "paired"
    assert [len(t["seats"]) for t in body["tables"]] == [4, 4, 4]
    assert [s["seat"] for s in body["tables"][0]["seats"]] == [0, 1, 2, 3]
    replay = api.post(f"{BASE}{slug}/rounds/", format="json", HTTP_IDEMPOTENCY_KEY="pair-1")
    assert replay.json() == body and replay["Idempotent-Replayed"] == "true"
    assert Round.objects.count() == 1
    again = api.post(f"{BASE}{slug}/rounds/", format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "round-pending"

    assert api.get(f"{BASE}{slug}/rounds/").json() == [
        {"number": 1, "status": "paired", "published_at": None, "starts_at": None}
    ]
    published = api.post(f"{BASE}{slug}/rounds/1/publish/", format="json")
    assert published.status_code == 200 and published.json()["status"] == "published"
    twice = api.post(f"{BASE}{slug}/rounds/1/publish/", format="json")
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "round-published"
    assert api.post(f"{BASE}{slug}/rounds/9/publish/", format="json").status_code == 404


@pytest.mark.django_db
def test_anyone_reads_a_public_tournament_its_rounds_and_standings(api, night, organiser):
    play_round(round_pair(tournament=night, by=organiser), seed=1, by=organiser)
    round_pair(tournament=night, by=organiser)  # round 2 paired, not published
    listing = api.get(BASE).json()
    assert listing["count"] == 1 and listing["results"][0]["slug"] == night.slug
    detail = api.get(f"{BASE}{night.slug}/").json()
    assert len(detail["registrations"]) == 12
    assert detail["rounds"] == [
        {
            "number": 1,
            "status": "complete",
            "published_at": detail["rounds"][0]["published_at"],
            "starts_at": None,
        }
    ]
    rnd = api.get(f"{BASE}{night.slug}/rounds/1/").json()
    tables = night.rounds.get(number=1).tables.order_by("number")
    assert [t["match"] for t in rnd["tables"]] == [t.match_id for t in tables]
    assert [s["player"] for s in rnd["tables"][0]["seats"]] == [
        s.player.handle for s in tables[0].seats.order_by("seat")
    ]
    assert api.get(f"{BASE}{night.slug}/rounds/2/").status_code == 404  # unpublished
    standings = api.get(f"{BASE}{night.slug}/standings/").json()
    expected = engine.standings(event_for(night, next_round=2).event)["standings"]
    assert standings["after_round"] == 1
    assert [(x["player"], x["rank"], x["points"]) for x in standings["standings"]] == [
        (x["player"], x["rank"], x["points"]) for x in expected
    ]


@pytest.mark.django_db
def test_writes_need_a_login_and_the_tournaments_club(api, night, other_club):
    slug = night.slug
    for path, body in [
        (BASE, CREATE),
        (f"{BASE}{slug}/registrations/", {"handles": ["p00"]}),
        (f"{BASE}{slug}/rounds/", {}),
        (f"{BASE}{slug}/rounds/1/publish/", {}),
    ]:
        response = api.post(path, body, format="json")
        assert response.status_code == 401, path
    stranger = OrganiserFactory(club=other_club).user
    api.force_authenticate(stranger)
    assert api.post(BASE, CREATE, format="json").status_code == 403  # lyon is not theirs
    for path, body in [
        (f"{BASE}{slug}/registrations/", {"handles": ["p00"]}),
        (f"{BASE}{slug}/rounds/", {}),
        (f"{BASE}{slug}/rounds/1/publish/", {}),
    ]:
        response = api.post(path, body, format="json")
        assert response.status_code == 403, path
    assert not Round.objects.exists()


@pytest.mark.django_db
def test_a_private_tournament_is_a_404_for_others_and_visible_to_its_organisers(
    api, night, organiser, federation_admin, other_club
):
    Tournament.objects.filter(pk=night.pk).update(public=False)
    for path in ["", "rounds/1/", "standings/", "rounds/"]:
        assert api.get(f"{BASE}{night.slug}/{path}").status_code == 404, path
    assert api.get(BASE).json()["count"] == 0
    api.force_authenticate(OrganiserFactory(club=other_club).user)
    assert api.get(f"{BASE}{night.slug}/").status_code == 404
    assert api.post(f"{BASE}{night.slug}/rounds/", format="json").status_code == 404
    for user in (organiser, federation_admin):
        api.force_authenticate(user)
        assert api.get(f"{BASE}{night.slug}/").status_code == 200
        assert api.get(BASE).json()["count"] == 1
