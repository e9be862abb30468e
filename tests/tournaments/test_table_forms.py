"""A table's result through the game's guided form: the club forms' fields, posted to
the table's page, store the table's match and land on the round."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from federation.models import Game
from scoring.models import Match
from tests.tournaments.entry_fields import sheet_fields, summary_fields
from tests.tournaments.flow import seated
from tournaments import engine
from tournaments.models import Table
from tournaments.pairing import event_for
from tournaments.services import (
    registrations_add,
    round_pair,
    round_publish,
    tournament_create,
)

HEADER = {"club": "lyon", "played_on": "2026-11-14", "game_number": "1"}


def _address(tournament, table: Table) -> str:
    return (
        f"/tournaments/{tournament.slug}/rounds/{table.round.number}/tables/{table.number}/result/"
    )


@pytest.fixture
def published(night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    return round_publish(round=rnd, by=organiser)


@pytest.mark.django_db
def test_the_table_page_is_the_score_sheet_filled_with_the_table(
    organiser_client, night, published
):
    table = published.tables.get(number=1)
    response = organiser_client.get(_address(night, table))
    page = response.content.decode()
    assert response.status_code == 200
    assert "tournaments/table_result_sheet.html" in [t.name for t in response.templates]
    for n, handle in enumerate(seated(table)):  # in seat order, not to be changed
        assert f'name="seat-{n}" value="{handle}"' in page
        assert re.search(rf'name="seat-{n}" value="{handle}"[^>]*readonly', page)
    assert f'name="seat-{len(seated(table))}"' not in page  # no spare seat
    assert 'value="more" name="seat"' not in page and 'value="seat"' not in page
    assert re.search(r'<option value="lyon" selected>', page)
    played_on = published.published_at.date().isoformat()
    assert f'name="played_on" value="{played_on}"' in page
    assert list(response.context["header"].fields["club"].queryset) == [night.club]
    assert '<option value="12" data-divisor="7" selected>' in page  # the form's default set
    assert "?form=summary" in page and "?form=record" in page
    assert 'name="record_text"' not in page  # the JSON is only the advanced way


@pytest.mark.django_db
def test_a_sheet_posted_to_the_table_stores_its_match_and_lands_on_the_round(
    organiser_client, api, night, published, organiser
):
    first, second = published.tables.order_by("number")[:2]
    fields = {**HEADER, **sheet_fields(seated(first))}
    response = organiser_client.post(_address(night, first), fields)
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{night.slug}/rounds/1/"
    match = Table.objects.get(pk=first.pk).match
    assert match is not None and match.verification == "sheet-checked"
    assert match.club == night.club and match.played_on == dt.date(2026, 11, 14)
    assert match.submitted_by == organiser and match.record["rules"] == {"set": 6}
    assert [s.player.handle for s in match.seats.order_by("seat")] == seated(first)
    assert match.events.count() == 1  # its history starts as for any match
    # the round's API shows the match on its table; the standings count it
    rnd = api.get(f"/api/v1/tournaments/{night.slug}/rounds/1/").json()
    shown = {t["table"]: t["match"] for t in rnd["tables"]}
    assert shown[first.number] == match.pk and shown[second.number] is None
    # the next table is offered with the rules the first was played with
    page = organiser_client.get(_address(night, second)).content.decode()
    assert '<option value="6" data-divisor="3" selected>' in page
    # the round's other tables by the sheet and the summary: the standings count them all
    for n, table in enumerate(published.tables.order_by("number")[1:]):
        entered = (
            sheet_fields(seated(table), shift=n + 1) if n % 2 else summary_fields(seated(table))
        )
        assert (
            organiser_client.post(_address(night, table), {**HEADER, **entered}).status_code == 302
        )
    standings = api.get(f"/api/v1/tournaments/{night.slug}/standings/").json()
    assert standings["after_round"] == 1
    points = {row["player"]: float(row["points"]) for row in standings["standings"]}
    expected = engine.standings(event_for(night, next_round=2).event)["standings"]
    assert points == {row["player"]: float(row["points"]) for row in expected}
    assert points[match.seats.get(rank=1).player.handle] == max(points.values()) > 0
    # the same fields again: the table has its result, nothing more is stored
    again = organiser_client.post(_address(night, first), fields)
    assert again.status_code == 400 and again.context["error"]["code"] == "table-has-result"
    assert Match.objects.count() == published.tables.count()


@pytest.mark.django_db
def test_a_refused_sheet_keeps_everything_typed_and_stores_nothing(
    organiser_client, night, published
):
    table = published.tables.get(number=1)
    fields = {**HEADER, **sheet_fields(seated(table)), "d0-r1-player": "0"}  # seat 0 twice
    response = organiser_client.post(_address(night, table), fields)
    page = response.content.decode()
    assert response.status_code == 400 and Match.objects.count() == 0
    assert Table.objects.get(pk=table.pk).match is None
    row = re.search(r'<li class="sheet-row has-error" id="(d0-r\d+)"', page)
    assert row and row.group(1) == "d0-r1" and 'href="#d0-r1"' in page
    assert "Deal 1, row 2" in page
    for name in ("d0-r0-sum", "d0-r2-sum", "d0-pips-1"):
        assert f'name="{name}"' in page and f'value="{fields[name]}"' in page
    assert f'name="seat-0" value="{seated(table)[0]}"' in page
    # a form problem: shown at its field, nothing stored
    blank = {**HEADER, **sheet_fields(seated(table)), "d0-pips-1": ""}
    response = organiser_client.post(_address(night, table), blank)
    assert response.status_code == 400 and Match.objects.count() == 0
    assert re.search(r'id="d0-pips-1"[^>]*>', response.content.decode())
    # other players than the table's (the seats are read-only, a post may still try)
    turned = {**HEADER, **sheet_fields(list(reversed(seated(table))))}
    response = organiser_client.post(_address(night, table), turned)
    assert response.status_code == 400 and response.context["error"]["code"] == "table-players"
    assert Match.objects.count() == 0
    assert f'name="seat-0" value="{seated(table)[-1]}"' in response.content.decode()


@pytest.mark.django_db
def test_the_per_deal_summary_of_a_table(organiser_client, api, night, published):
    table = published.tables.order_by("number").last()  # a table of 4 or 3
    assert len(seated(table)) in (3, 4)
    form = organiser_client.get(_address(night, table) + "?form=summary")
    page = form.content.decode()
    assert "tournaments/table_result_summary.html" in [t.name for t in form.templates]
    assert f'name="seat-0" value="{seated(table)[0]}"' in page and 'name="d0-points-0"' in page
    assert "?form=sheet" in page
    # the summary's fields posted to the table's own address (no ?form=): recognised
    fields = {**HEADER, **summary_fields(seated(table))}
    bad = organiser_client.post(_address(night, table), {**fields, "d0-pips-0": "3"})
    assert bad.status_code == 400 and Match.objects.count() == 0  # nobody out in deal 1
    assert 'value="13"' in bad.content.decode()  # d0-points-1, as typed
    stored = organiser_client.post(_address(night, table), fields)
    assert stored.status_code == 302
    match = Table.objects.get(pk=table.pk).match
    assert match.verification == "summary" and len(match.record["deals"]) == 2
    rnd = api.get(f"/api/v1/tournaments/{night.slug}/rounds/1/").json()
    assert {t["table"]: t["match"] for t in rnd["tables"]}[table.number] == match.pk


@pytest.mark.django_db
def test_the_full_record_stays_the_advanced_way(organiser_client, night, published):
    table = published.tables.get(number=1)
    page = organiser_client.get(_address(night, table) + "?form=record").content.decode()
    assert 'name="record_text"' in page
    assert f'href="{_address(night, table)}"' in page  # back to the guided form


@pytest.mark.django_db
def test_another_games_table_gets_its_summary_form(organiser_client, federation, organiser):
    club, handles = federation
    tournament = tournament_create(
        name="Astronomy Cup",
        game=Game.objects.get(key="astronomy"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[2],
        rounds_planned=1,
        seed=3,
        created_by=organiser,
    )
    registrations_add(tournament=tournament, handles=" ".join(handles[:4]), check_in=True)
    rnd = round_publish(round=round_pair(tournament=tournament, by=organiser), by=organiser)
    table = rnd.tables.get(number=1)
    address = _address(tournament, table)
    response = organiser_client.get(address)
    page = response.content.decode()
    assert "tournaments/table_result_summary.html" in [t.name for t in response.templates]
    assert 'name="winner"' in page and "?form=summary" not in page
    players = seated(table)
    fields = {**HEADER, "seat-0": players[0], "seat-1": players[1], "size": "5"}
    stored = organiser_client.post(address, {**fields, "winner": "1", "moves": "10"})
    assert stored.status_code == 302, stored.content.decode()[:2000]
    match = Table.objects.get(pk=table.pk).match
    assert match.game.key == "astronomy" and match.verification == "summary"


@pytest.mark.django_db
def test_more_rows_without_a_script_store_nothing_and_add_no_seat(
    organiser_client, night, published
):
    table = published.tables.get(number=1)
    fields = {**HEADER, **sheet_fields(seated(table))}
    rows = organiser_client.post(_address(night, table), {**fields, "more": "d0"})
    assert rows.status_code == 200 and Match.objects.count() == 0
    assert 'name="d0-r12-sum"' in rows.content.decode()  # room for more rows
    seat = organiser_client.post(_address(night, table), {**fields, "more": "seat"})
    assert f'name="seat-{len(seated(table))}"' not in seat.content.decode()
    assert Match.objects.count() == 0
