"""Results from the table: a seated player reports, the others confirm or contest."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from scoring.models import Match
from tests.factories import UserFactory
from tests.tournaments.flow import link_accounts as _link_all
from tests.tournaments.flow import seated, table_record
from tournaments.models import Round, Table, TableReport
from tournaments.services import round_pair, round_publish
from tournaments.services.reports import ReportRefused, report_confirm, report_submit


@pytest.fixture
def table_one(night, organiser):
    """Round 1 paired and published, every player with an account: table 1."""
    rnd = round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    users = _link_all(night)
    table = rnd.tables.get(number=1)
    return table, users


def _url(table: Table, what: str = "") -> str:
    rnd = table.round
    return f"/api/v1/tournaments/{rnd.tournament.slug}/rounds/{rnd.number}/tables/{table.number}/{what}"


@pytest.mark.django_db
def test_a_report_confirmed_by_every_other_player_records_the_match(api, table_one):
    table, users = table_one
    handles = seated(table)
    record = table_record(handles, seed=11)
    api.force_authenticate(users[handles[0]])
    answer = api.post(_url(table, "report/"), {"record": record}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["status"] == "reported"
    report = answer.json()["report"]
    assert (
        api.post(_url(table, "confirm/"), {"report": report}, format="json").json()["error"]["code"]
        == "report-own"
    )
    for handle in handles[1:-1]:
        api.force_authenticate(users[handle])
        done = api.post(_url(table, "confirm/"), {"report": report}, format="json")
        assert done.status_code == 200 and done.json()["match"] is None
    table.refresh_from_db()
    assert table.match_id is None
    api.force_authenticate(users[handles[-1]])
    last = api.post(_url(table, "confirm/"), {"report": report}, format="json")
    assert last.status_code == 200 and last.json()["status"] == "recorded"
    table.refresh_from_db()
    assert table.match_id == last.json()["match"]
    assert table.match.record == record and table.match.finished
    state = api.get(_url(table)).json()
    assert state["state"] == "recorded" and state["match"] == table.match_id
    assert sorted(state["reports"][0]["confirmed_by"]) == sorted(handles[1:])
    again = api.post(_url(table, "report/"), {"record": record}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "table-has-result"


@pytest.mark.django_db
def test_only_the_tables_players_report_confirm_or_read(api, table_one, night):
    table, users = table_one
    handles = seated(table)
    outsider = next(h for h in users if h not in handles)
    record = table_record(handles, seed=3)
    assert api.post(_url(table, "report/"), {"record": record}, format="json").status_code in (
        401,
        403,
    )
    api.force_authenticate(users[outsider])
    refused = api.post(_url(table, "report/"), {"record": record}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "report-not-seated"
    assert api.get(_url(table)).status_code == 403
    api.force_authenticate(UserFactory())  # no player
    assert api.post(_url(table, "report/"), {"record": record}, format="json").status_code == 403
    assert not TableReport.objects.exists()


@pytest.mark.django_db
def test_a_record_that_does_not_replay_is_refused_with_the_engines_error(api, table_one):
    table, users = table_one
    handles = seated(table)
    record = table_record(handles, seed=5)
    broken = json.loads(json.dumps(record))
    moves = broken["deals"][0]["moves"]
    broken["deals"][0]["moves"] = moves[:1] + moves[:1]  # the first move played twice
    api.force_authenticate(users[handles[1]])
    answer = api.post(_url(table, "report/"), {"record": broken}, format="json")
    assert answer.status_code == 400
    assert isinstance(answer.json()["error"]["move"], int)
    wrong = api.post(
        _url(table, "report/"), {"record": table_record(handles[::-1], 5)}, format="json"
    )
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "table-players"
    assert not TableReport.objects.exists()


@pytest.mark.django_db
def test_a_second_report_replaces_the_first_and_two_reports_dispute(
    api, table_one, client, organiser
):
    table, users = table_one
    handles = seated(table)
    api.force_authenticate(users[handles[0]])
    first = api.post(_url(table, "report/"), {"record": table_record(handles, 1)}, format="json")
    second = api.post(_url(table, "report/"), {"record": table_record(handles, 2)}, format="json")
    statuses = dict(TableReport.objects.values_list("pk", "status"))
    assert statuses == {first.json()["report"]: "replaced", second.json()["report"]: "reported"}
    assert api.get(_url(table)).json()["state"] == "reported"
    api.force_authenticate(users[handles[1]])
    api.post(_url(table, "report/"), {"record": table_record(handles, 3)}, format="json")
    assert api.get(_url(table)).json()["state"] == "disputed"
    client.force_login(organiser)
    page = client.get(f"/tournaments/{table.round.tournament.slug}/manage/")
    assert 'class="disputed"' in page.content.decode()
    closed = api.post(_url(table, "confirm/"), {"report": first.json()["report"]}, format="json")
    assert closed.status_code == 409 and closed.json()["error"]["code"] == "report-closed"


@pytest.mark.django_db
def test_a_contest_disputes_and_the_organisers_result_settles(api, table_one):
    from tests.tournaments.flow import PLAYED_ON
    from tournaments.services import table_result_record

    table, users = table_one
    handles = seated(table)
    api.force_authenticate(users[handles[0]])
    report = api.post(_url(table, "report/"), {"record": table_record(handles, 1)}, format="json")
    api.force_authenticate(users[handles[1]])
    no_reason = api.post(
        _url(table, "contest/"), {"report": report.json()["report"]}, format="json"
    )
    assert no_reason.status_code == 400
    contest = api.post(
        _url(table, "contest/"),
        {"report": report.json()["report"], "reason": "I won hand 3"},
        format="json",
    )
    assert contest.status_code == 200 and contest.json()["status"] == "contested"
    state = api.get(_url(table)).json()
    assert state["state"] == "disputed"
    assert state["reports"][0]["contests"] == [{"player": handles[1], "reason": "I won hand 3"}]
    table_result_record(table=table, played_on=PLAYED_ON, record=table_record(handles, 9))
    assert TableReport.objects.get().status == "settled"
    assert api.get(_url(table)).json()["state"] == "recorded"


@pytest.mark.django_db
def test_a_round_not_published_is_refused(api, night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    users = _link_all(night)
    table = rnd.tables.get(number=1)
    handles = seated(table)
    api.force_authenticate(users[handles[0]])
    answer = api.post(_url(table, "report/"), {"record": table_record(handles, 1)}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "round-unpublished"
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PAIRED


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_the_same_moment_store_one_match(night, organiser, evening):
    rnd = round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    users = _link_all(night)
    table = rnd.tables.get(number=1)
    handles = seated(table)
    report = report_submit(table=table, user=users[handles[0]], record=table_record(handles, 4))
    for handle in handles[1:-2]:  # everyone but the last two has confirmed
        report_confirm(table=table, user=users[handle], report_id=report.pk)
    start = threading.Barrier(2, timeout=10)
    outcomes: list[object] = []

    def confirm(handle: str) -> None:
        try:
            start.wait()
            outcomes.append(report_confirm(table=table, user=users[handle], report_id=report.pk))
        except ReportRefused as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(h,)) for h in handles[-2:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(outcomes) == 2
    assert Match.objects.count() == 1
    assert Table.objects.get(pk=table.pk).match_id == Match.objects.get().pk
    assert TableReport.objects.get().status == "recorded"
    # the one that came second found the match already stored, or was the last confirmation
    assert sum(1 for o in outcomes if isinstance(o, ReportRefused)) <= 1
