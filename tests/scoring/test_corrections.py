"""Corrections and withdrawals, with history: through the API as a client calls it,
on the match page, and in the admin. Nothing is ever deleted."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re

import pytest
import time_machine
from django.utils import timezone

from federation.models import Game
from quotient.demo import rename_players
from ratings.models import RankingList
from scoring.models import Match, MatchEvent, MatchSeat, Status
from tests.factories import OrganiserFactory
from tests.samples import DIVISOR_SUMMARY, SHEET_RECORD

pytestmark = pytest.mark.usefixtures("clock")

NOVEMBER_EVENING = dt.datetime(2026, 11, 2, 19, tzinfo=dt.UTC)

#: the same evening, the points entered wrongly at first: ben won, not ana
CORRECTED = copy.deepcopy(DIVISOR_SUMMARY)
CORRECTED["deals"][0]["summary"] = {
    "points": {"ana": 7, "ben": 12, "cem": 3},
    "pips_left": {"ana": 14, "ben": 0, "cem": 9},
}


@pytest.fixture
def stranger(other_club):
    """An organiser of another club."""
    return OrganiserFactory(club=other_club).user


@pytest.fixture
def match_id(api, organiser, players):
    api.force_authenticate(organiser)
    response = api.post(
        "/api/v1/matches/",
        {"club": "lyon", "played_on": "2026-11-02", "record": DIVISOR_SUMMARY},
        format="json",
    )
    assert response.status_code == 201, response.content
    api.force_authenticate(None)
    return response.json()["id"]


def withdraw(api, match_id, reason="entered twice"):
    return api.post(f"/api/v1/matches/{match_id}/withdraw/", {"reason": reason}, format="json")


def correct(api, match_id, record, reason="points swapped"):
    return api.post(
        f"/api/v1/matches/{match_id}/correct/", {"record": record, "reason": reason}, format="json"
    )


def ranks(body: dict) -> dict[str, int]:
    return {seat["player"]: seat["rank"] for seat in body["seats"]}


@pytest.mark.django_db
@pytest.mark.parametrize("change", ["withdraw", "correct"])
def test_who_may_correct_or_withdraw(api, match_id, organiser, federation_admin, stranger, change):
    def attempt():
        if change == "withdraw":
            return withdraw(api, match_id)
        return correct(api, match_id, CORRECTED)

    assert attempt().status_code == 401  # anonymous
    api.force_authenticate(stranger)
    assert attempt().status_code == 403  # another club's organiser
    assert Match.objects.get().version == 1 and MatchEvent.objects.count() == 1
    api.force_authenticate(organiser if change == "correct" else federation_admin)
    response = attempt()
    assert response.status_code == 200, response.content
    assert response.json() == api.get(f"/api/v1/matches/{match_id}/").json()
    assert api.post("/api/v1/matches/999999/withdraw/", {"reason": "x"}).status_code == 404


@pytest.mark.django_db
def test_a_federation_admin_corrects_and_an_organiser_withdraws(
    api, match_id, organiser, federation_admin
):
    api.force_authenticate(federation_admin)
    assert correct(api, match_id, CORRECTED).status_code == 200
    api.force_authenticate(organiser)
    assert withdraw(api, match_id).status_code == 200


@pytest.mark.django_db
def test_a_correction_replaces_the_result_and_keeps_the_previous_version(api, match_id, organiser):
    before = api.get(f"/api/v1/matches/{match_id}/").json()
    assert (before["status"], before["version"]) == ("recorded", 1)
    assert ranks(before) == {"ana": 1, "ben": 3, "cem": 2}
    api.force_authenticate(organiser)
    response = correct(api, match_id, CORRECTED)
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["version"]) == ("corrected", 2)
    assert ranks(body) == {"ana": 3, "ben": 1, "cem": 2}
    assert body["result"]["standings"][0]["player"] == "ben"
    # the counted month is the one the match had: the next list applies the correction
    assert (body["counted_month"], body["late"]) == (before["counted_month"], before["late"])
    assert MatchSeat.objects.filter(match_id=match_id).count() == 3
    api.force_authenticate(None)
    history = api.get(f"/api/v1/matches/{match_id}/history/").json()
    assert [(e["action"], e["version"]) for e in history] == [("recorded", 1), ("corrected", 2)]
    assert history[0]["record"] == DIVISOR_SUMMARY and history[1]["record"] == CORRECTED
    assert history[1]["reason"] == "points swapped"
    assert history[0]["fingerprint"] != history[1]["fingerprint"]
    assert history[1]["fingerprint"] == Match.objects.get().fingerprint
    assert [e["by"] for e in history] == [None, None]  # hidden from the public
    api.force_authenticate(organiser)
    history = api.get(f"/api/v1/matches/{match_id}/history/").json()
    assert [e["by"] for e in history] == [organiser.username] * 2
    assert history[0]["at"] <= history[1]["at"]


@pytest.mark.django_db
def test_a_bad_correction_is_a_400_with_the_engines_error_and_changes_nothing(
    api, match_id, organiser
):
    api.force_authenticate(organiser)
    stored = Match.objects.get()
    bad = copy.deepcopy(CORRECTED)
    bad["deals"][0]["summary"]["pips_left"] = {"ana": 14, "ben": 3, "cem": 9}  # nobody out
    response = correct(api, match_id, bad)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "summary-nobody-out"
    assert response.json()["detail"] == response.json()["error"]["message"]
    for record, code in [
        ({**CORRECTED, "game": "9tka"}, None),
        (rename_players(CORRECTED, {"cem": "zoe"}), "unknown-player"),
        (DIVISOR_SUMMARY, "correction-unchanged"),
    ]:
        response = correct(api, match_id, record)
        assert response.status_code == 400, record
        if code:
            assert response.json()["error"]["code"] == code
    assert (
        api.post(
            f"/api/v1/matches/{match_id}/correct/", {"record": CORRECTED}, format="json"
        ).status_code
        == 400
    )  # no reason
    assert (
        api.post(
            f"/api/v1/matches/{match_id}/withdraw/", {"reason": "  "}, format="json"
        ).status_code
        == 400
    )
    after = Match.objects.get()
    assert (after.version, after.status, after.record, after.fingerprint) == (
        1,
        "recorded",
        stored.record,
        stored.fingerprint,
    )
    assert MatchEvent.objects.count() == 1


@pytest.mark.django_db
def test_a_correction_of_another_game_is_refused(api, match_id, organiser):
    api.force_authenticate(organiser)
    other = {
        "game": "9tka",
        "players": ["ana", "ben", "cem"],
        "summary": {"sections": {"ana": 4, "ben": 3, "cem": 1}},
    }
    response = correct(api, match_id, other)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "correction-other-game"


@pytest.mark.django_db
def test_a_correction_into_another_stored_match_is_a_409(api, match_id, organiser):
    api.force_authenticate(organiser)
    other = api.post(
        "/api/v1/matches/",
        {"club": "lyon", "played_on": "2026-11-02", "record": CORRECTED},
        format="json",
    )
    assert other.status_code == 201
    response = correct(api, match_id, rename_players(CORRECTED, {"ana": "ANA"}))
    assert response.status_code == 409
    error = response.json()["error"]
    assert (error["code"], error["params"]["match"]) == ("duplicate-match", other.json()["id"])
    assert Match.objects.get(pk=match_id).version == 1
    # its own earlier version is no other match
    third = copy.deepcopy(CORRECTED)
    third["deals"][0]["summary"]["points"]["cem"] = 4
    assert correct(api, match_id, third).status_code == 200
    assert correct(api, match_id, DIVISOR_SUMMARY).status_code == 200
    assert Match.objects.get(pk=match_id).version == 3


@pytest.mark.django_db
def test_a_withdrawn_match_is_kept_listed_and_frozen(api, match_id, organiser):
    api.force_authenticate(organiser)
    response = withdraw(api, match_id, reason="played at another club's evening")
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["version"]) == ("withdrawn", 1)
    again = withdraw(api, match_id)
    assert again.status_code == 409 and again.json()["error"]["code"] == "match-withdrawn"
    assert correct(api, match_id, CORRECTED).status_code == 409
    listed = api.get("/api/v1/matches/").json()
    assert [(m["id"], m["status"]) for m in listed["results"]] == [(match_id, "withdrawn")]
    assert api.get("/api/v1/matches/?status=withdrawn").json()["count"] == 1
    assert api.get("/api/v1/matches/?status=recorded,corrected").json()["count"] == 0
    assert api.get("/api/v1/matches/?status=deleted").status_code == 400
    history = api.get(f"/api/v1/matches/{match_id}/history/").json()
    assert [(e["action"], e["version"], e["record"]) for e in history] == [
        ("recorded", 1, DIVISOR_SUMMARY),
        ("withdrawn", 1, None),
    ]
    assert history[1]["reason"] == "played at another club's evening"
    assert Match.objects.filter(pk=match_id).exists()


@pytest.mark.django_db
def test_matches_cannot_be_deleted_anywhere(
    api, client, match_id, federation_admin, django_user_model
):
    api.force_authenticate(federation_admin)
    assert api.delete(f"/api/v1/matches/{match_id}/").status_code == 405
    boss = django_user_model.objects.create_superuser("boss", "b@example.org", "pw-123456")
    client.force_login(boss)
    assert client.get(f"/admin/scoring/match/{match_id}/delete/").status_code == 403
    changelist = client.get("/admin/scoring/match/")
    actions = [name for name, _ in changelist.context["action_form"].fields["action"].choices]
    assert "withdraw" in actions and "delete_selected" not in actions
    assert Match.objects.filter(pk=match_id).exists()


@pytest.mark.django_db
def test_the_admin_withdraws_with_a_reason_and_shows_the_history(
    client, match_id, django_user_model
):
    boss = django_user_model.objects.create_superuser("boss", "b@example.org", "pw-123456")
    client.force_login(boss)
    ask = client.post(
        "/admin/scoring/match/", {"action": "withdraw", "_selected_action": [match_id]}
    )
    assert ask.status_code == 200 and b"reason" in ask.content
    assert Match.objects.get().status == "recorded"
    done = client.post(
        "/admin/scoring/match/",
        {"action": "withdraw", "_selected_action": [match_id], "reason": "duplicate entry"},
    )
    assert done.status_code == 302
    match = Match.objects.get()
    assert match.status == "withdrawn"
    assert match.events.last().reason == "duplicate entry" and match.events.last().by == boss
    page = client.get(f"/admin/scoring/match/{match_id}/change/").content.decode()
    assert "duplicate entry" in page


@pytest.mark.django_db
def test_the_match_page_offers_the_changes_to_its_organisers(client, match_id, organiser, stranger):
    page = client.get(f"/matches/{match_id}/").content.decode()
    assert 'name="action" value="correct"' not in page
    client.force_login(stranger)
    assert (
        f"/matches/{match_id}/withdraw/" not in client.get(f"/matches/{match_id}/").content.decode()
    )
    assert client.get(f"/matches/{match_id}/withdraw/?reason=x").status_code == 403
    assert (
        client.post(f"/matches/{match_id}/", {"action": "withdraw", "reason": "x"}).status_code
        == 403
    )
    client.force_login(organiser)
    page = client.get(f"/matches/{match_id}/").content.decode()
    assert 'value="correct"' in page and f'action="/matches/{match_id}/withdraw/"' in page
    bad = json.dumps(CORRECTED).replace('"ben": 0', '"ben": 3')
    refused = client.post(
        f"/matches/{match_id}/",
        {"action": "correct", "record_text": bad, "reason": "points swapped"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = refused.content.decode()
    assert refused.status_code == 400 and "summary-nobody-out" in text
    assert "points swapped" in text and "&quot;ben&quot;: 3" in text  # nothing lost
    assert Match.objects.get().version == 1
    fixed = client.post(
        f"/matches/{match_id}/",
        {"action": "correct", "record_text": json.dumps(CORRECTED), "reason": "points swapped"},
    )
    assert fixed.status_code == 302 and Match.objects.get().version == 2
    # withdrawing cannot be undone: a POST without confirm=1 is answered by the
    # confirmation page, and only the confirmed one withdraws
    asked = client.post(f"/matches/{match_id}/", {"action": "withdraw", "reason": "abuse"})
    assert asked.status_code == 200 and Match.objects.get().status != "withdrawn"
    assert 'name="confirm" value="1"' in asked.content.decode()
    gone = client.post(
        f"/matches/{match_id}/", {"action": "withdraw", "reason": "abuse", "confirm": "1"}
    )
    assert gone.status_code == 302 and Match.objects.get().status == "withdrawn"
    page = client.get(f"/matches/{match_id}/").content.decode()
    assert "/withdraw/" not in page and "abuse" in page


@pytest.mark.django_db
def test_the_match_page_says_which_lists_counted_it(client, match_id, organiser, api):
    """Published lists never change: each counted the version it saw when published."""
    game = Game.objects.get(key="divisor")

    def publish(month: dt.date, revision: int) -> RankingList:
        return RankingList.objects.create(
            game=game,
            month=month,
            revision=revision,
            published_at=timezone.now(),
            inputs_hash="x" * 64,
            parameters={},
            engine_version="test",
        )

    with time_machine.travel(dt.datetime(2026, 12, 1, 0, 15, tzinfo=dt.UTC), tick=False):
        publish(dt.date(2026, 10, 1), 1)  # before the match's month: never counted it
        publish(dt.date(2026, 11, 1), 1)
    with time_machine.travel(dt.datetime(2026, 12, 3, 12, tzinfo=dt.UTC), tick=False):
        api.force_authenticate(organiser)
        assert correct(api, match_id, CORRECTED).status_code == 200
    with time_machine.travel(dt.datetime(2026, 12, 4, tzinfo=dt.UTC), tick=False):
        publish(dt.date(2026, 11, 1), 2)  # a forced re-run publishes a new revision
    with time_machine.travel(dt.datetime(2027, 1, 1, 0, 15, tzinfo=dt.UTC), tick=False):
        publish(dt.date(2026, 12, 1), 1)
    with time_machine.travel(dt.datetime(2027, 1, 5, tzinfo=dt.UTC), tick=False):
        assert withdraw(api, match_id).status_code == 200
    with time_machine.travel(dt.datetime(2027, 2, 1, 0, 15, tzinfo=dt.UTC), tick=False):
        publish(dt.date(2027, 1, 1), 1)  # after the withdrawal: not counted
    page = client.get(f"/matches/{match_id}/").content.decode()  # from rows (anonymous)
    shown = re.findall(r'">(\d{4}-\d\d)</a> — revision (\d), version (\d) of the record', page)
    assert shown == [("2026-11", "1", "1"), ("2026-11", "2", "2"), ("2026-12", "1", "2")]
    assert "/rankings/divisor/2026-11/" in page
    client.force_login(organiser)  # the template's page
    page = client.get(f"/matches/{match_id}/")
    rows = [
        (row["ranking"].month.isoformat(), row["ranking"].revision, row["version"])
        for row in page.context["counted_in"]
    ]
    assert rows == [("2026-11-01", 1, 1), ("2026-11-01", 2, 2), ("2026-12-01", 1, 2)]


@pytest.mark.django_db
def test_the_tournament_api_answers_with_its_own_detail(api, match_id, organiser):
    api.force_authenticate(organiser)
    body = withdraw(api, match_id).json()
    assert "round" in body and body["round"] is None


@pytest.mark.django_db
def test_a_sheet_corrected_in_a_closed_month_keeps_its_counted_month(api, organiser, players):
    api.force_authenticate(organiser)
    with time_machine.travel(NOVEMBER_EVENING, tick=False):
        created = api.post(
            "/api/v1/matches/",
            {"club": "lyon", "played_on": "2026-11-02", "record": SHEET_RECORD},
            format="json",
        ).json()
    assert created["counted_month"] == "2026-11"
    fixed = copy.deepcopy(SHEET_RECORD)
    fixed["deals"][0]["pips_left"] = {"ana": 0, "ben": 12, "cem": 9}
    with time_machine.travel(dt.datetime(2027, 1, 10, tzinfo=dt.UTC), tick=False):
        response = correct(api, created["id"], fixed, reason="ben counted 12")
    assert response.status_code == 200, response.content
    assert response.json()["counted_month"] == "2026-11" and response.json()["late"] is False


# ---------------------------------------------------------------------------
# If-Match: the match's version is its ETag; a stale one is a 412 and changes
# nothing; without one the last writer wins, as before (issue 20, defect 14)

#: a second correction: cem's points changed too
AGAIN = copy.deepcopy(CORRECTED)
AGAIN["deals"][0]["summary"]["points"]["cem"] = 4


def _correct(api, match_id, record, **headers):
    return api.post(
        f"/api/v1/matches/{match_id}/correct/",
        {"record": record, "reason": "the sheet said otherwise"},
        format="json",
        headers=headers,
    )


@pytest.mark.django_db
def test_the_match_carries_its_version_as_etag(api, organiser, match_id):
    shown = api.get(f"/api/v1/matches/{match_id}/")
    assert shown.status_code == 200 and shown["ETag"] == '"1"'
    api.force_authenticate(organiser)
    corrected = _correct(api, match_id, CORRECTED, **{"If-Match": shown["ETag"]})
    assert corrected.status_code == 200, corrected.content
    assert corrected["ETag"] == '"2"' and corrected.json()["version"] == 2
    assert api.get(f"/api/v1/matches/{match_id}/")["ETag"] == '"2"'


@pytest.mark.django_db
def test_a_stale_if_match_is_refused_with_412_and_changes_nothing(api, organiser, match_id):
    api.force_authenticate(organiser)
    # two organisers read version 1; the first corrects it
    assert _correct(api, match_id, CORRECTED, **{"If-Match": '"1"'}).status_code == 200
    # the second, still holding version 1, is told instead of overwriting it
    stale = _correct(api, match_id, AGAIN, **{"If-Match": '"1"'})
    assert stale.status_code == 412, stale.content
    error = stale.json()["error"]
    assert error["code"] == "match-version-changed"
    assert error["params"] == {"match": match_id, "version": 2}
    assert "version 2" in error["message"]
    withdrawn = api.post(
        f"/api/v1/matches/{match_id}/withdraw/",
        {"reason": "never played"},
        format="json",
        headers={"If-Match": 'W/"1", "7"'},
    )
    assert withdrawn.status_code == 412
    for junk in ('"abc"', '"²"'):
        assert _correct(api, match_id, AGAIN, **{"If-Match": junk}).status_code == 412
    match = Match.objects.get(pk=match_id)
    assert (match.version, match.status) == (2, Status.CORRECTED)
    assert match.events.count() == 2
    # the current version (or "*") goes through
    assert _correct(api, match_id, AGAIN, **{"If-Match": '"2"'}).status_code == 200
    done = api.post(
        f"/api/v1/matches/{match_id}/withdraw/",
        {"reason": "never played"},
        format="json",
        headers={"If-Match": "*"},
    )
    assert done.status_code == 200 and done.json()["status"] == "withdrawn"


@pytest.mark.django_db
def test_without_if_match_the_last_writer_wins_as_before(api, organiser, match_id):
    api.force_authenticate(organiser)
    assert _correct(api, match_id, CORRECTED).status_code == 200
    assert _correct(api, match_id, AGAIN).status_code == 200
    assert Match.objects.get(pk=match_id).version == 3
    actions = list(MatchEvent.objects.filter(match_id=match_id).values_list("action", flat=True))
    assert actions == ["recorded", "corrected", "corrected"]


@pytest.mark.django_db
def test_the_schema_documents_if_match(api):
    schema = api.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for action in ("correct", "withdraw"):
        operation = paths[f"/api/v1/matches/{{id}}/{action}/"]["post"]
        names = [p["name"] for p in operation.get("parameters", [])]
        assert "If-Match" in names, action
        assert "412" in operation["responses"]


@pytest.mark.django_db
def test_the_match_pages_forms_send_back_the_version_they_showed(client, match_id, organiser):
    client.force_login(organiser)
    page = client.get(f"/matches/{match_id}/").content.decode()
    assert 'name="version" value="1"' in page
    # someone corrected it since the page was shown: the stale form is refused
    first = {"action": "correct", "record_text": json.dumps(CORRECTED), "reason": "r"}
    assert client.post(f"/matches/{match_id}/", {**first, "version": 1}).status_code == 302
    again = {"action": "correct", "record_text": json.dumps(AGAIN), "reason": "r", "version": 1}
    stale = client.post(f"/matches/{match_id}/", again, HTTP_ACCEPT_LANGUAGE="fr")
    assert stale.status_code == 400
    assert "match-version-changed" in stale.content.decode()
    assert "version 2" in stale.content.decode()
    gone = client.post(
        f"/matches/{match_id}/", {"action": "withdraw", "reason": "x", "version": 1, "confirm": "1"}
    )
    assert gone.status_code == 400
    assert Match.objects.get().version == 2 and Match.objects.get().status == "corrected"
    fresh = client.post(
        f"/matches/{match_id}/", {"action": "withdraw", "reason": "x", "version": 2, "confirm": "1"}
    )
    assert fresh.status_code == 302 and Match.objects.get().status == "withdrawn"
