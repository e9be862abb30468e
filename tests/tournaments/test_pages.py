"""The organiser's pages and the public ones, with Django's test client (the project
has no browser set up): the manage flow, a table's result through the match
submission form, print views, CSV exports."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from scoring.models import Match
from tests.tournaments.flow import PLAYED_ON, play_round, seated, table_record
from tournaments import pairing
from tournaments.models import Registration, Round, Table, Tournament
from tournaments.services import round_pair, round_publish


@pytest.mark.django_db
def test_an_organiser_creates_a_tournament_and_runs_round_one_from_the_pages(
    organiser_client, federation, evening
):
    page = organiser_client.get("/tournaments/new/")
    assert page.status_code == 200 and 'value="4, 3"' in page.content.decode()
    bad = organiser_client.post(
        "/tournaments/new/",
        {
            "name": "Trimorp Cup",
            "game": "trimorp",
            "club": "lyon",
            "starts_on": "2026-11-14",
            "format": "swiss",
            "table_sizes": "4",
            "rounds_planned": 3,
        },
    )
    assert bad.status_code == 400 and "Trimorp is played at tables of 3" in bad.content.decode()
    made = organiser_client.post(
        "/tournaments/new/",
        {
            "name": "Nuit du Divisor",
            "game": "divisor",
            "club": "lyon",
            "starts_on": "2026-11-14",
            "format": "swiss",
            "table_sizes": "4, 3",
            "rounds_planned": 3,
            "public": "on",
        },
    )
    assert made.status_code == 302 and made["Location"] == "/tournaments/nuit-du-divisor/manage/"
    base = "/tournaments/nuit-du-divisor/manage/"
    refused = organiser_client.post(base + "registrations/", {"handles": "p00 zed"}, follow=True)
    assert "unknown handles zed" in refused.content.decode()
    handles = "\n".join(f"p{n:02d}" for n in range(11))
    organiser_client.post(base + "registrations/", {"handles": handles, "check_in": "on"})
    organiser_client.post(base + "registrations/", {"handles": "p11"})  # not checked in yet
    late = Registration.objects.get(player__handle="p11")
    assert not late.checked_in
    organiser_client.post(f"{base}registrations/{late.pk}/check-in/", {"checked_in": "on"})
    assert Registration.objects.filter(checked_in=True).count() == 12
    found = organiser_client.get(base, {"q": "p0"}).content.decode()
    assert "p05" in found
    paired = organiser_client.post(base + "pair/", follow=True)
    assert "Round 1 is paired" in paired.content.decode()
    rnd = Round.objects.get()
    anonymous_view = pytest.importorskip("django.test").Client()
    assert anonymous_view.get("/tournaments/nuit-du-divisor/rounds/1/").status_code == 404
    first, second = seated(rnd.tables.get(number=1))[0], seated(rnd.tables.get(number=2))[0]
    swapped = organiser_client.post(
        base + "rounds/1/swap/", {"first": first, "second": second}, follow=True
    )
    assert f"{first} and {second} swapped places" in swapped.content.decode()
    assert seated(rnd.tables.get(number=1))[0] == second
    organiser_client.post(base + "rounds/1/repair/", {"confirm": "1"})
    assert seated(rnd.tables.get(number=1))[0] == first  # the engine's pairing again
    organiser_client.post(base + "rounds/1/publish/", {"confirm": "1"})
    assert anonymous_view.get("/tournaments/nuit-du-divisor/rounds/1/").status_code == 200
    event = organiser_client.get(base + "event.json").json()
    assert len(event["players"]) == 12 and len(event["rounds"]) == 0


@pytest.mark.django_db
def test_a_tables_result_goes_through_the_match_form_prefilled_and_a_bad_record_keeps_it(
    organiser_client, night, organiser
):
    rnd = round_pair(tournament=night, by=organiser)
    table = rnd.tables.get(number=2)
    address = f"/tournaments/{night.slug}/rounds/1/tables/2/result/"
    unpublished = organiser_client.post(
        address,
        {
            "club": "lyon",
            "played_on": "2026-11-14",
            "record_text": json.dumps(table_record(seated(table), 5)),
        },
    )
    assert unpublished.status_code == 400 and "is not published yet" in unpublished.content.decode()
    rnd = round_publish(round=rnd, by=organiser)
    form = organiser_client.get(address + "?form=record")  # the advanced way
    skeleton = form.context["form"].initial["record_text"]
    assert json.loads(skeleton) == {"game": "divisor", "players": seated(table)}
    assert form.context["form"].initial["club"] == "lyon"
    assert form.context["form"].initial["played_on"] == rnd.published_at.date()
    assert list(form.context["form"].fields["club"].queryset) == [night.club]

    # the players in another order: refused, nothing stored, the form keeps the text
    good = table_record(seated(table), 5)
    turned = table_record(list(reversed(seated(table))), 5)
    text = json.dumps(turned)
    bad = organiser_client.post(
        address, {"club": "lyon", "played_on": "2026-11-14", "record_text": text}
    )
    body = bad.content.decode()
    assert bad.status_code == 400 and "Nothing was stored." in body
    assert bad.context["error"]["code"] == "table-players"
    assert bad.context["form"]["record_text"].value() == text
    # a record the engine refuses: its message, nothing stored
    broken = json.loads(json.dumps(good))
    broken["deals"][0]["moves"] = broken["deals"][0]["moves"][:1] + broken["deals"][0]["moves"][:1]
    text = json.dumps(broken)
    bad = organiser_client.post(
        address, {"club": "lyon", "played_on": "2026-11-14", "record_text": text}
    )
    assert bad.status_code == 400 and bad.context["error"]["move"] is not None
    assert bad.context["form"]["record_text"].value() == text
    # a valid record that stops before the end: no final ranks to score
    unfinished = json.loads(json.dumps(good))
    unfinished["deals"][0]["moves"] = unfinished["deals"][0]["moves"][:5]
    bad = organiser_client.post(
        address,
        {"club": "lyon", "played_on": "2026-11-14", "record_text": json.dumps(unfinished)},
    )
    assert bad.status_code == 400 and bad.context["error"]["code"] == "table-unfinished"
    assert Match.objects.count() == 0 and Table.objects.get(pk=table.pk).match is None

    stored = organiser_client.post(
        address, {"club": "lyon", "played_on": "2026-11-14", "record_text": json.dumps(good)}
    )
    assert stored.status_code == 302
    match = Table.objects.get(pk=table.pk).match
    assert match is not None and match.club == night.club and match.played_on == PLAYED_ON
    assert [s.player.handle for s in match.seats.order_by("seat")] == seated(table)
    again = organiser_client.post(
        address, {"club": "lyon", "played_on": "2026-11-14", "record_text": json.dumps(good)}
    )
    assert again.status_code == 400 and again.context["error"]["code"] == "table-has-result"
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_public_pages_print_views_and_csv_exports(client, night, organiser):
    for number in (1, 2):
        play_round(round_pair(tournament=night, by=organiser), seed=number, by=organiser)
    slug = night.slug
    for path in [
        "/tournaments/",
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/rounds/1/",
        f"/tournaments/{slug}/rounds/2/print/",
        f"/tournaments/{slug}/standings/",
        f"/tournaments/{slug}/standings/?after=1",
        f"/tournaments/{slug}/standings/print/",
        f"/tournaments/{slug}/crosstable/",
    ]:
        page = client.get(path)
        assert page.status_code == 200, path
        assert "<script>" not in page.content.decode() and "onclick" not in page.content.decode()
    assert night.name in client.get("/tournaments/").content.decode()
    sheets = client.get(f"/tournaments/{slug}/rounds/2/sheets/").content.decode()
    assert sheets.count('class="sheet"') == 3
    first = night.rounds.get(number=2).tables.get(number=1)
    names = [s.player.public_display_name for s in first.seats.order_by("seat")]
    positions = [sheets.index(name) for name in names]
    assert positions == sorted(positions)  # the players in seat order
    assert "tournaments.js" in sheets and "data-print" in sheets

    response = client.get(f"/tournaments/{slug}/standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{slug}-standings.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert rows[0] == [
        "rank",
        "player",
        "name",
        "points",
        "buchholz",
        "sonneborn_berger",
        "score",
        "withdrawn",
    ]
    _after, lines = pairing.standings_after(night)
    assert [(r[0], r[1]) for r in rows[1:]] == [(str(x.rank), x.player.handle) for x in lines]
    assert float(rows[1][3]) == pytest.approx(lines[0].points, abs=0.005)

    cross = client.get(f"/tournaments/{slug}/crosstable.csv")
    table = list(csv.reader(io.StringIO(cross.content.decode("utf-8"))))
    assert table[0][:4] == ["rank", "player", "name", "points"]
    assert table[0][4:] == [
        "r1_table",
        "r1_opponents",
        "r1_place",
        "r1_points",
        "r2_table",
        "r2_opponents",
        "r2_place",
        "r2_points",
    ]
    _numbers, cross_rows = pairing.crosstable(night)
    for line, row in zip(table[1:], cross_rows, strict=True):
        cell = row.cells[0]
        assert line[1] == row.line.player.handle
        assert line[4:8] == [
            str(cell.table),
            " ".join(p.handle for _r, p in cell.opponents),
            str(cell.place),
            line[7],
        ]
        assert float(line[7]) == pytest.approx(cell.points, abs=0.005)


def test_a_wide_table_scrolls_in_its_box_and_the_site_has_a_print_stylesheet():
    text = Path(finders.find("quotient/site.css")).read_text(encoding="utf-8")
    assert ".scroll { overflow-x: auto" in text and "@media print" in text
    script = Path(finders.find("quotient/tournaments.js")).read_text(encoding="utf-8")
    assert "window.print()" in script


@pytest.mark.django_db
def test_an_unpublished_round_and_a_private_tournament_are_hidden(client, night, organiser):
    round_pair(tournament=night, by=organiser)
    assert client.get(f"/tournaments/{night.slug}/rounds/1/").status_code == 404
    Tournament.objects.filter(pk=night.pk).update(public=False)
    for path in ["", "standings/", "crosstable/", "standings.csv", "rounds/1/print/"]:
        assert client.get(f"/tournaments/{night.slug}/{path}").status_code == 404, path
    assert night.name not in client.get("/tournaments/").content.decode()
    client.force_login(organiser)
    assert client.get(f"/tournaments/{night.slug}/rounds/1/").status_code == 200
    assert night.name in client.get("/tournaments/").content.decode()


@pytest.mark.django_db
def test_withdrawal_late_entry_and_a_granted_bye_from_the_manage_page(
    organiser_client, night, organiser
):
    from tests.factories import PlayerFactory

    play_round(round_pair(tournament=night, by=organiser), seed=1, by=organiser)
    PlayerFactory(handle="p12", club=night.club)
    base = f"/tournaments/{night.slug}/manage/"
    page = organiser_client.get(base).content.decode()
    assert "Late entry" in page and "Register players" not in page
    leaving = night.registrations.get(player__handle="p03")
    done = organiser_client.post(
        f"{base}registrations/{leaving.pk}/withdraw/", {"confirm": "1"}, follow=True
    )
    assert "p03 withdraws from round 2 on." in done.content.decode()
    done = organiser_client.post(base + "late/", {"handle": "P12"}, follow=True)
    assert "p12 joins at round 2." in done.content.decode()
    assert "grant a bye" in done.content.decode()
    done = organiser_client.post(base + "rounds/1/byes/", {"handle": "p12"}, follow=True)
    assert "p12 has a bye in round 1." in done.content.decode()
    assert "bye granted" in done.content.decode()
    refused = organiser_client.post(base + "rounds/1/byes/", {"handle": "p05"}, follow=True)
    assert "a bye is granted only for a round a late entrant missed" in refused.content.decode()
    organiser_client.post(base + "pair/")
    second = night.rounds.get(number=2)
    players = {s.player.handle for t in second.tables.all() for s in t.seats.all()}
    assert "p12" in players and "p03" not in players and len(players) == 12
    page = organiser_client.get(base).content.decode()
    assert "Pair this round again" in page and "Publish" in page
    standings = organiser_client.get(f"/tournaments/{night.slug}/standings/").content.decode()
    assert "withdrawn" in standings
