""" "This is me" on a player's own page: their next tables (table and seat), the table
results waiting for their confirmation, their disputes with outcomes; for them only,
and a conditional GET does not hide a change of these."""

from __future__ import annotations

import pytest

from scoring.disputes import dispute_open, dispute_settle
from tests.factories import UserFactory
from tests.tournaments.flow import link_accounts as _link_all
from tests.tournaments.flow import seated, table_record
from tournaments.services import round_pair, round_publish, table_result_record
from tournaments.services.reports import report_submit


@pytest.fixture
def evening_round(night, organiser):
    rnd = round_publish(round=round_pair(tournament=night, by=organiser), by=organiser)
    return rnd, _link_all(night)


def _page(client, handle: str, **headers) -> tuple[int, str, str]:
    answer = client.get(f"/players/{handle}/", **headers)
    return answer.status_code, answer.content.decode(), answer.get("ETag", "")


@pytest.mark.django_db
def test_the_players_own_page_shows_their_tables_results_to_confirm_and_disputes(
    client, evening_round, organiser
):
    rnd, users = evening_round
    table, other = rnd.tables.get(number=1), rnd.tables.get(number=2)
    handles = seated(table)
    me = handles[1]
    client.force_login(users[me])
    status, page, etag = _page(client, me)
    assert status == 200 and 'id="me"' in page
    slug = rnd.tournament.slug
    report_url = f"/tournaments/{slug}/rounds/1/tables/{table.number}/report/"
    assert f"round 1: table {table.number}, seat 2" in page and report_url in page
    assert "No result waits for your confirmation." in page
    # a result reported by another player of the table: to confirm, the 304 not given
    report_submit(table=table, user=users[handles[0]], record=table_record(handles, 3))
    status, page, new_etag = _page(client, me, HTTP_IF_NONE_MATCH=etag)
    assert status == 200 and new_etag != etag
    assert f'class="to-confirm" href="{report_url}"' in page
    # a recorded match of theirs (another table's), contested then rejected
    recorded = table_result_record(
        table=other,
        played_on=rnd.published_at.date(),
        record=table_record(seated(other), 5),
        submitted_by=organiser,
    ).match
    mine = seated(other)[0]
    client.force_login(users[mine])
    dispute = dispute_open(match=recorded, user=users[mine], reason="my 12 points")
    page = _page(client, mine)[1]
    assert f'class="dispute-open"><a href="/matches/{recorded.pk}/"' in page
    dispute_settle(dispute=dispute, by=organiser, outcome="rejected", reason="sheet checked")
    page = _page(client, mine)[1]
    assert 'class="dispute-rejected"' in page and "sheet checked" in page
    assert "No table waiting for you." in page  # their table has its result


@pytest.mark.django_db
def test_nobody_else_sees_the_tools(client, evening_round):
    rnd, users = evening_round
    handles = seated(rnd.tables.get(number=1))
    assert 'id="me"' not in _page(client, handles[0])[1]  # anonymous
    client.force_login(users[handles[1]])
    assert 'id="me"' not in _page(client, handles[0])[1]  # another player
    client.force_login(UserFactory())  # no player
    assert 'id="me"' not in _page(client, handles[0])[1]


@pytest.mark.django_db
def test_the_tools_in_french_and_german(client, evening_round):
    rnd, users = evening_round
    me = seated(rnd.tables.get(number=1))[0]
    client.force_login(users[me])
    for language, words in (("fr", "C'est moi"), ("de", "Das bin ich")):
        client.cookies["django_language"] = language
        assert words in _page(client, me)[1]
