"""A table's result from a phone: the table's QR code, and the report page of its
seated players (the guided forms store a report; the others confirm or contest it)."""

from __future__ import annotations

import pytest

from tests.tournaments.entry_fields import sheet_fields
from tests.tournaments.flow import link_accounts, seated
from tournaments.models import Table, TableReport
from tournaments.services import round_pair, round_publish

HEADER = {"club": "lyon", "played_on": "2026-11-14", "game_number": "1"}


@pytest.fixture
def table_one(night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    return rnd.tables.get(number=1), link_accounts(night)


def _address(table: Table, what: str = "report/") -> str:
    rnd = table.round
    return f"/tournaments/{rnd.tournament.slug}/rounds/{rnd.number}/tables/{table.number}/{what}"


@pytest.mark.django_db
def test_the_qr_code_points_at_the_report_page(client, table_one, night, organiser):
    table, _users = table_one
    svg = client.get(_address(table, "qr.svg"))
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert svg.content.startswith(b"<svg") and b"<path" in svg.content
    assert (
        client.get(_address(table, "qr.svg").replace("tables/1/", "tables/99/")).status_code == 404
    )
    client.force_login(organiser)
    manage = client.get(f"/tournaments/{night.slug}/manage/").content.decode()
    assert _address(table, "qr.svg") in manage
    printed = client.get(f"/tournaments/{night.slug}/rounds/1/print/").content.decode()
    assert f'src="{_address(table, "qr.svg")}"' in printed


@pytest.mark.django_db
def test_only_a_seated_player_opens_the_report_page(client, table_one):
    table, users = table_one
    handles = seated(table)
    assert client.get(_address(table)).status_code == 302  # to the login
    outsider = next(h for h in users if h not in handles)
    client.force_login(users[outsider])
    assert client.get(_address(table)).status_code == 403
    client.force_login(users[handles[0]])
    page = client.get(_address(table))
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="d0-r0-sum"' in body and handles[0] in body


@pytest.mark.django_db
def test_a_sheet_reported_on_a_phone_then_confirmed_by_the_others(client, table_one):
    table, users = table_one
    handles = seated(table)
    client.force_login(users[handles[0]])
    posted = client.post(_address(table), {**HEADER, **sheet_fields(handles)})
    assert posted.status_code == 302, posted.context and posted.context.get("error")
    report = TableReport.objects.get()
    assert report.reported_by.handle == handles[0] and report.status == "reported"
    for handle in handles[1:]:
        client.force_login(users[handle])
        page = client.get(_address(table)).content.decode()
        assert "Confirm this result" in page
        confirmed = client.post(_address(table, "report/confirm/"), {"report": report.pk})
        assert confirmed.status_code == 302
    table.refresh_from_db()
    assert table.match is not None and table.match.verification == "sheet-checked"
    assert TableReport.objects.get().status == "recorded"


@pytest.mark.django_db
def test_a_contest_from_the_phone_disputes_the_table(client, table_one):
    table, users = table_one
    handles = seated(table)
    client.force_login(users[handles[0]])
    client.post(_address(table), {**HEADER, **sheet_fields(handles)})
    report = TableReport.objects.get()
    client.force_login(users[handles[2]])
    client.post(_address(table, "report/contest/"), {"report": report.pk, "reason": "wrong sums"})
    page = client.get(_address(table)).content.decode()
    assert 'class="disputed"' in page and "wrong sums" in page
    own = client.post(_address(table, "report/confirm/"), {"report": report.pk}, follow=True)
    assert "no longer open" in own.content.decode()
    assert Table.objects.get(pk=table.pk).match is None


@pytest.mark.django_db
def test_my_tables_lists_the_players_tables_waiting_for_a_result(client, table_one):
    from tests.factories import UserFactory

    table, users = table_one
    handles = seated(table)
    client.force_login(UserFactory())
    assert "not linked to a player" in client.get("/tournaments/my-tables/").content.decode()
    client.force_login(users[handles[0]])
    page = client.get("/tournaments/my-tables/").content.decode()
    assert _address(table) in page
    other = table.round.tables.exclude(pk=table.pk).first()
    assert _address(other) not in page
