"""A table's result form sent twice with one ``Idempotency-Key`` (a copy kept on the
device while the venue had no network, sent again): one match, the same answer."""

from __future__ import annotations

import json

import pytest

from scoring.models import Match
from tests.tournaments.flow import PLAYED_ON, seated, table_record
from tournaments.services import round_pair, round_publish


@pytest.mark.django_db
def test_a_table_result_sent_twice_is_recorded_once(night, organiser, organiser_client):
    rnd = round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    table = rnd.tables.order_by("number").first()
    url = f"/tournaments/{night.slug}/rounds/1/tables/{table.number}/result/"
    form = {
        "club": "lyon",
        "played_on": PLAYED_ON.isoformat(),
        "record_text": json.dumps(table_record(seated(table), 11)),
    }
    headers = {"Idempotency-Key": "table-1"}
    answers = [organiser_client.post(url, form, headers=headers) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 200]
    assert [a.json()["outcome"] for a in answers] == ["stored", "duplicate"]
    table.refresh_from_db()
    assert answers[0].json()["match"] == answers[1].json()["match"] == table.match_id
    assert Match.objects.count() == 1
    # another key (another sending) for the same table: refused as before, its result stays
    again = organiser_client.post(url, {**form, "idempotency_key": "table-1b"})
    assert again.status_code == 400
    assert Match.objects.count() == 1
