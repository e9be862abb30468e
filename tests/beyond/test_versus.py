"""Head-to-head: ``GET /api/v1/players/<a>/vs/<b>/`` and its pages."""

from __future__ import annotations

import pytest

from federation.models import Player
from scoring.models import Match
from scoring.services import match_withdraw


@pytest.mark.django_db
def test_head_to_head_api(api, played):
    club, matches, ranking = played
    body = api.get("/api/v1/players/p00/vs/P01/").json()
    assert [p["handle"] for p in body["players"]] == ["p00", "p01"]
    # p00 ahead in matches 1, 3 and 4, behind in 2; scores are points less pips left
    assert (body["meetings"], body["wins"], body["losses"], body["ties"]) == (4, 3, 1, 0)
    assert (body["points_for"], body["points_against"]) == (40 + 15 + 50 + 17, 5 + 35 + 25 + 6)
    assert [m["match"] for m in body["last_meetings"]] == [m.pk for m in matches[::-1]]
    assert body["last_meetings"][0] == {
        "match": matches[3].pk,
        "played_on": "2026-09-06",
        "game": "divisor",
        "players_at_table": 3,
        "ranks": [2, 3],
        "scores": [17, 6],
        "outcome": "win",
    }
    entries = {e.player.handle: e for e in ranking.entries.select_related("player")}
    (numbers,) = body["numbers"]
    assert numbers["game"] == "divisor" and numbers["month"] == "2026-09"
    assert numbers["fladub"] == [entries["p00"].fladub, entries["p01"].fladub]
    assert numbers["difference"] == entries["p00"].fladub - entries["p01"].fladub
    # from the other side: mirrored
    other = api.get("/api/v1/players/p01/vs/p00/").json()
    assert (other["wins"], other["losses"], other["points_for"]) == (1, 3, 71)


@pytest.mark.django_db
def test_head_to_head_one_game_and_withdrawn(api, played, django_user_model):
    club, matches, ranking = played
    assert api.get("/api/v1/players/p00/vs/p01/?game=astronomy").json()["meetings"] == 0
    admin = django_user_model.objects.create_superuser("a", "a@example.org", "pw-123456")
    match_withdraw(match=Match.objects.get(pk=matches[0].pk), reason="twice", by=admin)
    body = api.get("/api/v1/players/p00/vs/p01/?game=divisor").json()
    assert (body["meetings"], body["wins"], body["losses"]) == (3, 2, 1)


@pytest.mark.django_db
def test_head_to_head_names_only_with_consent(api, played):
    Player.objects.filter(handle="p01").update(display_name="Zoé Secret", public_name=False)
    body = api.get("/api/v1/players/p00/vs/p01/").json()
    assert body["players"][1]["name"] == "Z. S."
    page = api.get("/players/p00/vs/p01/").content.decode()
    assert "Secret" not in page and "Z. S." in page


@pytest.mark.django_db
def test_head_to_head_bad_input(api, played):
    response = api.get("/api/v1/players/p00/vs/P00/")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "versus-self"
    response = api.get("/api/v1/players/p00/vs/p01/?game=chess")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "game-unknown")
    assert api.get("/api/v1/players/p00/vs/nobody/").status_code == 404
    page = api.get("/players/p00/vs/p00/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 400


@pytest.mark.django_db
def test_head_to_head_pages(client, played):
    chloe = Player.objects.get(handle="p01")
    chloe.display_name, chloe.public_name = "Chloé Dupont", True
    chloe.save()
    player_page = client.get("/players/p00/").content.decode()
    assert 'href="/players/p00/vs/"' in player_page
    choose = client.get("/players/p00/vs/?q=CHLOE").content.decode()
    assert 'href="/players/p00/vs/p01/"' in choose
    assert 'href="/players/p00/vs/p00/"' not in client.get("/players/p00/vs/?q=p0").content.decode()
    page = client.get("/players/p00/vs/p01/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Chloé Dupont" in html and "Begegnungen" in html
    assert (
        client.get("/players/p00/vs/p01/", HTTP_ACCEPT_LANGUAGE="fr")
        .content.decode()
        .count("Rencontres")
    )
