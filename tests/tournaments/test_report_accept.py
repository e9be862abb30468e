"""The organiser settles a table's dispute by accepting one report (manage page and
API): recorded as the confirmations record it, once, and the players told by mail."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from federation.models import NotificationSetting
from federation.notifications import Kind
from scoring.models import Match, MatchEvent
from tests.tournaments.flow import PLAYED_ON, seated, table_record
from tests.tournaments.flow import link_accounts as _link_all
from tournaments.models import Table, TableReport
from tournaments.services import round_pair, round_publish, table_result_record
from tournaments.services.reports import (
    ReportRefused,
    report_accept,
    report_confirm,
    report_contest,
    report_submit,
)


@pytest.fixture
def disputed(night, organiser):
    """Round 1 published, accounts with addresses; table 1 has two reports that differ."""
    rnd = round_publish(round=round_pair(tournament=night, by=organiser), by=organiser)
    users = _link_all(night)
    for handle, user in users.items():
        user.email = f"{handle}@example.org"
        user.save(update_fields=["email"])
    table = rnd.tables.get(number=1)
    handles = seated(table)
    first = report_submit(table=table, user=users[handles[0]], record=table_record(handles, 1))
    second = report_submit(table=table, user=users[handles[1]], record=table_record(handles, 2))
    return table, users, first, second


def _api(table: Table, what: str = "") -> str:
    rnd = table.round
    return f"/api/v1/tournaments/{rnd.tournament.slug}/rounds/{rnd.number}/tables/{table.number}/{what}"


def _accept_url(table: Table, report: TableReport) -> str:
    rnd = table.round
    return (
        f"/tournaments/{rnd.tournament.slug}/manage/rounds/{rnd.number}"
        f"/tables/{table.number}/accept/{report.pk}/"
    )


@pytest.mark.django_db
def test_the_organiser_accepts_one_report_by_the_api(api, disputed, organiser):
    table, users, first, second = disputed
    handles = seated(table)
    api.force_authenticate(users[handles[2]])  # a player may not
    refused = api.post(_api(table, "accept/"), {"report": second.pk}, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "report-not-organiser"
    assert api.get(_api(table)).json()["state"] == "disputed"
    api.force_authenticate(organiser)
    done = api.post(_api(table, "accept/"), {"report": second.pk}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "recorded"
    match = Match.objects.get()
    assert done.json()["match"] == match.pk == Table.objects.get(pk=table.pk).match_id
    assert match.record == second.record and match.submitted_by == organiser
    event = match.events.get()
    assert event.action == MatchEvent.Action.RECORDED and event.by == organiser
    assert "Accepted by the organiser" in event.reason
    assert second.reported_by.public_display_name in event.reason
    statuses = dict(TableReport.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "settled", second.pk: "recorded"}
    again = api.post(_api(table, "accept/"), {"report": first.pk}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "table-has-result"
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_the_manage_page_shows_the_dispute_and_accepts_after_confirmation(
    client, disputed, organiser
):
    table, users, first, second = disputed
    handles = seated(table)
    report_contest(table=table, user=users[handles[2]], report_id=first.pk, reason="9 not 19")
    slug = table.round.tournament.slug
    client.force_login(users[handles[2]])
    assert client.get(_accept_url(table, second)).status_code == 403
    assert client.post(_accept_url(table, second), {"confirm": "1"}).status_code == 403
    client.force_login(organiser)
    page = client.get(f"/tournaments/{slug}/manage/").content.decode()
    assert 'id="disputes"' in page and "9 not 19" in page
    for report in (first, second):
        assert _accept_url(table, report) in page
    confirm = client.get(_accept_url(table, second))
    assert confirm.status_code == 200 and 'name="confirm"' in confirm.content.decode()
    assert client.post(_accept_url(table, second)).status_code == 200  # not confirmed
    assert Match.objects.count() == 0
    done = client.post(_accept_url(table, second), {"confirm": "1"})
    assert done.status_code == 302 and done["Location"].endswith("/manage/#disputes")
    assert Table.objects.get(pk=table.pk).match.record == second.record
    twice = client.post(_accept_url(table, second), {"confirm": "1"}, follow=True)
    assert twice.status_code == 200 and Match.objects.count() == 1
    page = client.get(f"/tournaments/{slug}/manage/").content.decode()
    assert 'id="disputes"' not in page


@pytest.mark.django_db
def test_a_settled_table_dispute_mails_its_players_once(
    disputed, organiser, smtp, eager, django_capture_on_commit_callbacks
):
    table, users, first, second = disputed
    handles = seated(table)
    muted = users[handles[1]].player
    NotificationSetting.objects.create(player=muted, muted=[Kind.DISPUTE_SETTLED])
    smtp.mails.clear()
    with django_capture_on_commit_callbacks(execute=True):
        report_accept(table=table, user=organiser, report_id=first.pk)
    settled = [m for m in smtp.mails if m["Subject"].startswith("A dispute is settled")]
    to = sorted(m["To"] for m in settled)
    assert to == sorted(f"{h}@example.org" for h in handles if h != handles[1])
    mail = settled[0]
    assert table.round.tournament.name in mail["Subject"]
    text = mail.get_content()
    reporter = first.reported_by.public_display_name
    assert f"accepted the result reported by {reporter}" in text
    match = Table.objects.get(pk=table.pk).match
    assert f"https://quotient.test/matches/{match.pk}/" in text


@pytest.mark.django_db
def test_the_organisers_result_on_a_disputed_table_mails_its_players(
    disputed, organiser, smtp, eager, django_capture_on_commit_callbacks
):
    table, users, _first, _second = disputed
    smtp.mails.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table_result_record(
            table=table,
            played_on=PLAYED_ON,
            record=table_record(seated(table), 9),
            submitted_by=organiser,
        )
    settled = [m for m in smtp.mails if "dispute" in m["Subject"].lower()]
    assert len(settled) == len(seated(table))
    assert "the organiser entered the result." in settled[0].get_content()


@pytest.mark.django_db
def test_a_confirmed_table_sends_no_dispute_mail(
    night, organiser, smtp, eager, django_capture_on_commit_callbacks
):
    rnd = round_publish(round=round_pair(tournament=night, by=organiser), by=organiser)
    users = _link_all(night)
    for handle, user in users.items():
        user.email = f"{handle}@example.org"
        user.save(update_fields=["email"])
    table = rnd.tables.get(number=2)
    handles = seated(table)
    report = report_submit(table=table, user=users[handles[0]], record=table_record(handles, 5))
    smtp.mails.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for handle in handles[1:]:
            report_confirm(table=table, user=users[handle], report_id=report.pk)
    assert not [m for m in smtp.mails if "dispute" in m["Subject"].lower()]
    assert len(smtp.mails) == len(handles)  # each one's result recorded


@pytest.mark.django_db(transaction=True)
def test_accepting_while_the_last_player_confirms_stores_one_match(night, organiser, evening):
    rnd = round_publish(round=round_pair(tournament=night, by=organiser), by=organiser)
    users = _link_all(night)
    table = rnd.tables.get(number=1)
    handles = seated(table)
    report = report_submit(table=table, user=users[handles[0]], record=table_record(handles, 4))
    for handle in handles[1:-1]:
        report_confirm(table=table, user=users[handle], report_id=report.pk)
    start = threading.Barrier(3, timeout=10)
    outcomes: list[object] = []

    def run(action) -> None:
        try:
            start.wait()
            outcomes.append(action())
        except ReportRefused as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    actions = [
        lambda: report_confirm(table=table, user=users[handles[-1]], report_id=report.pk),
        lambda: report_accept(table=table, user=organiser, report_id=report.pk),
        lambda: report_accept(table=table, user=organiser, report_id=report.pk),
    ]
    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(outcomes) == 3
    assert Match.objects.count() == 1
    assert Table.objects.get(pk=table.pk).match_id == Match.objects.get().pk
    assert TableReport.objects.get().status == "recorded"
    refused = [o for o in outcomes if isinstance(o, ReportRefused)]
    assert len(refused) == 2 and all(o.code == "table-has-result" for o in refused)
