"""A table's match may be corrected, never given other players; a withdrawn one counts
as not played; whatever is stored, the standings and the pairing answer (issue 20,
defects 1 and 10)."""

from __future__ import annotations

import json

import pytest

from scoring.models import Match, MatchSeat, Status
from scoring.services import match_correct, match_withdraw
from tests.tournaments.flow import PLAYED_ON, play_round, seated, table_record
from tournaments.errors import TableRejected
from tournaments.models import Round, Table
from tournaments.services import registration_withdraw, round_pair, table_result_record

pytestmark = pytest.mark.django_db


def _first_round(night):
    rnd = round_pair(tournament=night)
    play_round(rnd, seed=1)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETE
    return rnd


def _pages_answer(client, api, night) -> dict:
    """Every reading of the standings answers; the API's standings are returned."""
    slug = night.slug
    for url in (
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/standings/",
        f"/tournaments/{slug}/standings/print/",
        f"/tournaments/{slug}/standings.csv",
        f"/tournaments/{slug}/crosstable/",
        f"/tournaments/{slug}/crosstable.csv",
        f"/tournaments/{slug}/rounds/1/",
        f"/tournaments/{slug}/export.json",
    ):
        assert client.get(url).status_code == 200, url
    # TRF holds tables of two only: refused here with a 409, never a 500
    assert client.get(f"/tournaments/{slug}/export.trf").status_code == 409
    answer = api.get(f"/api/v1/tournaments/{slug}/standings/")
    assert answer.status_code == 200
    return answer.json()


def test_a_correction_keeps_the_tables_players_in_seat_order(
    night, organiser, api, organiser_client
):
    rnd = _first_round(night)
    table = rnd.tables.order_by("number").first()
    match = table.match
    handles = seated(table)
    api.force_authenticate(organiser)
    url = f"/api/v1/matches/{match.pk}/correct/"
    others = list(night.registrations.values_list("player__handle", flat=True))
    stranger = next(h for h in others if h not in handles)
    for players in (
        [handles[1], handles[0], *handles[2:]],  # the seat order changed
        [stranger, *handles[1:]],  # another player
        handles[:-1],  # one player fewer
    ):
        body = {"record": table_record(players, 99), "reason": "wrong sheet"}
        refused = api.post(url, body, format="json")
        assert refused.status_code == 409, refused.content
        error = refused.json()["error"]
        assert error["code"] == "correction-table-players"
        assert error["params"]["expected"] == ", ".join(handles)
    # the form of the match page is refused the same way, the form kept
    posted = organiser_client.post(
        f"/matches/{match.pk}/",
        {
            "action": "correct",
            "record_text": json.dumps(table_record(handles[::-1], 5)),
            "reason": "typo",
        },
    )
    assert posted.status_code == 400
    assert "correction-table-players" in posted.content.decode()
    # the service itself, whoever calls it (the admin links to the match page's form)
    with pytest.raises(TableRejected) as refused_service:
        match_correct(match=match, record=table_record(handles[::-1], 6), reason="x", by=organiser)
    assert refused_service.value.status == 409
    match.refresh_from_db()
    assert match.version == 1 and match.status == Status.RECORDED
    # the same players in the same seats with another result: corrected
    corrected = api.post(
        url, {"record": table_record(handles, 77), "reason": "wrong sheet"}, format="json"
    )
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["version"] == 2


def test_a_correction_must_leave_the_tables_match_finished(night, organiser):
    rnd = _first_round(night)
    table = rnd.tables.order_by("number").first()
    unfinished = table_record(seated(table), 3)
    unfinished["deals"][0]["moves"] = unfinished["deals"][0]["moves"][:3]
    with pytest.raises(TableRejected) as refused:
        match_correct(match=table.match, record=unfinished, reason="half", by=organiser)
    assert refused.value.code == "table-unfinished"


def _points(standings: dict) -> dict[str, float]:
    return {line["player"]: line["points"] for line in standings["standings"]}


def test_a_withdrawn_tables_match_counts_as_not_played(night, organiser, api, client):
    rnd = _first_round(night)
    first, second = list(rnd.tables.order_by("number"))[:2]
    gone = seated(second)
    api.force_authenticate(organiser)
    before = _points(_pages_answer(client, api, night))
    assert any(before[h] for h in gone)
    withdrawn = api.post(
        f"/api/v1/matches/{second.match_id}/withdraw/", {"reason": "not played"}, format="json"
    )
    assert withdrawn.status_code == 200
    after = _points(_pages_answer(client, api, night))
    assert all(after[h] == 0 for h in gone)  # no points for anyone at that table
    assert all(after[h] == before[h] for h in seated(first))  # the others keep theirs
    round_page = client.get(f"/tournaments/{night.slug}/rounds/1/").content.decode()
    assert "withdrawn: not played" in round_page
    shown = api.get(f"/api/v1/tournaments/{night.slug}/rounds/1/").json()["tables"]
    assert [t["match_status"] for t in shown][:2] == ["recorded", "withdrawn"]
    # the next pairing agrees: they did not meet, so nothing warns of a rematch
    second_round = api.post(f"/api/v1/tournaments/{night.slug}/rounds/")
    assert second_round.status_code == 201, second_round.content
    # and the table may be given its result again
    rnd2 = Round.objects.get(tournament=night, number=2)
    rnd2.delete()
    table_result_record(table=second, played_on=PLAYED_ON, record=table_record(gone, 42))
    second.refresh_from_db()
    assert second.match.status == Status.RECORDED
    assert all(_points(_pages_answer(client, api, night))[h] is not None for h in gone)


def test_standings_and_pairing_answer_whatever_is_stored(night, organiser, api, client):
    """Every correction and withdrawal path, and a table whose match holds other
    players (stored before corrections were held to the table): nothing answers 500."""
    rnd = _first_round(night)
    tables = list(rnd.tables.order_by("number"))
    api.force_authenticate(organiser)
    # a correction through the service, one through the API, a withdrawal, a player
    # withdrawn from the tournament
    match_correct(
        match=tables[0].match,
        record=table_record(seated(tables[0]), 11),
        reason="x",
        by=organiser,
    )
    assert (
        api.post(
            f"/api/v1/matches/{tables[1].match_id}/correct/",
            {"record": table_record(seated(tables[1]), 12), "reason": "y"},
            format="json",
        ).status_code
        == 200
    )
    match_withdraw(match=Match.objects.get(pk=tables[1].match_id), reason="z", by=organiser)
    registration_withdraw(registration=night.registrations.first(), from_round=2)
    # data as a correction could leave it before the fix: the match's seats hold
    # another player than the table's
    stray = MatchSeat.objects.filter(match=tables[2].match).order_by("seat").first()
    outsider = MatchSeat.objects.filter(match=tables[0].match).order_by("seat").last()
    stray.player_id = outsider.player_id
    stray.save(update_fields=["player"])
    _pages_answer(client, api, night)
    paired = api.post(f"/api/v1/tournaments/{night.slug}/rounds/")
    assert paired.status_code == 201, paired.content
    assert Table.objects.filter(round__tournament=night, round__number=2).exists()
    _pages_answer(client, api, night)
