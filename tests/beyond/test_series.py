"""Season points: a series of tournaments, its standings (API, page, CSV), recomputed
when a tournament finishes or a match of it is corrected; bad series refused."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.db import transaction

from federation.models import Game
from scoring.models import Match
from scoring.services import match_correct
from tests.tournaments.flow import play_round, seated, table_record
from tournaments.models import Series, Tournament
from tournaments.pairing import standings_after
from tournaments.series import _Player, series_compute
from tournaments.services import registrations_add, round_pair, tournament_create

POINTS = [10, 6, 4, 3, 2, 1]


def one_round(club, slug, handles, *, seed, game="divisor"):
    """A public one-round tournament at tables of two, its players checked in."""
    tournament = tournament_create(
        name=f"Open {slug}",
        slug=slug,
        game=Game.objects.get(key=game),
        club=club,
        starts_on=dt.date(2026, 11, seed),
        table_sizes=[2],
        rounds_planned=1,
        public=True,
        seed=seed,
    )
    registrations_add(tournament=tournament, handles=" ".join(handles), check_in=True)
    return tournament


def finish(tournament, seed):
    play_round(round_pair(tournament=tournament, by=None), seed=seed)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


@pytest.fixture
def season(federation, evening, django_capture_on_commit_callbacks):
    """Three one-round tournaments of p00-p05 (the first two finished) in a series
    counting two results."""
    club, handles = federation
    events = [one_round(club, f"open-{n}", handles[:6], seed=n) for n in (1, 2, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        for n, tournament in enumerate(events[:2], start=1):
            finish(tournament, n)
        series = Series.objects.create(
            name="Grand Prix 2026",
            slug="gp-2026",
            game=Game.objects.get(key="divisor"),
            points=POINTS,
            counted=2,
        )
        series.tournaments.set(events)
    series.refresh_from_db()
    return series, events


def expected(events, counted=2):
    """The standings worked out from each tournament's own standings."""
    results: dict[str, list[int]] = {}
    for tournament in events:
        if tournament.status != Tournament.Status.FINISHED:
            continue
        for line in standings_after(tournament)[1]:
            points = POINTS[line.rank - 1] if line.rank <= len(POINTS) else 0
            results.setdefault(line.player.handle, []).append(points)
    return {h: sum(sorted(p, reverse=True)[:counted]) for h, p in results.items()}


@pytest.mark.django_db
def test_series_standings_api_page_and_csv(api, client, season):
    series, events = season
    body = api.get("/api/v1/series/gp-2026/").json()
    assert (body["game"], body["counted"], body["points"]) == ("divisor", 2, POINTS)
    assert body["tournaments"] == ["open-1", "open-2", "open-3"]
    totals = {row["player"]: row["points"] for row in body["standings"]}
    assert totals == expected(events)
    points = [row["points"] for row in body["standings"]]
    assert points == sorted(points, reverse=True)
    assert all(len(row["events"]) == 2 for row in body["standings"])  # open-3 not finished
    assert body["standings"][0]["rank"] == 1
    page = client.get("/series/gp-2026/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200 and "Punkte und Feinwertung" in page.content.decode()
    rows = list(
        csv.reader(io.StringIO(client.get("/series/gp-2026/standings.csv").content.decode()))
    )
    assert rows[0] == [
        "rank",
        "player",
        "name",
        "points",
        "results",
        "counted_events",
        "other_events",
    ]
    assert [r[1] for r in rows[1:]] == [row["player"] for row in body["standings"]]
    assert 'href="/series/gp-2026/"' in client.get("/series/").content.decode()


@pytest.mark.django_db
def test_best_results_count_and_the_third_tournament_updates_on_finish(
    season, django_capture_on_commit_callbacks
):
    series, events = season
    with django_capture_on_commit_callbacks(execute=True):
        finish(events[2], 3)
    series.refresh_from_db()
    assert {row["player"]: row["points"] for row in series.standings} == expected(events)
    for row in series.standings:
        assert len(row["events"]) == 3 and sum(e["counted"] for e in row["events"]) == 2
        kept = sorted((e["points"] for e in row["events"]), reverse=True)[:2]
        assert sorted(e["points"] for e in row["events"] if e["counted"]) == sorted(kept)


@pytest.mark.django_db
def test_a_corrected_match_recomputes_the_series(
    season, federation_admin, django_capture_on_commit_callbacks
):
    series, events = season
    before = series.standings
    table = events[0].rounds.get(number=1).tables.order_by("number").first()
    match = Match.objects.get(pk=table.match_id)
    winner = min(match.seats.all(), key=lambda s: s.rank).player.handle
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(60):  # another sheet of the same table, until the other one won
            record = table_record(seated(table), 9000 + seed)
            match_correct(match=match, record=record, reason="sheet", by=federation_admin)
            match = Match.objects.get(pk=match.pk)
            if min(match.seats.all(), key=lambda s: s.rank).player.handle != winner:
                break
    series.refresh_from_db()
    assert series.standings == series_compute(series)
    assert series.standings != before


def test_tie_breaks():
    def player(handle, *events):
        p = _Player(0, handle, [{"place": pl, "points": pt, "counted": False} for pl, pt in events])
        p.count(2)
        return p

    a = player("a", (1, 10), (6, 1))  # 11 points
    b = player("b", (2, 6), (3, 4), (5, 2))  # 10 counted, 12 in all
    c = player("c", (2, 6), (2, 6), (9, 0))  # 12
    d = player("d", (3, 4), (1, 10), (7, 0))  # 14: a 1st, a 3rd and a 7th place
    e = player("e", (1, 10), (3, 4))  # 14: a 1st and a 3rd place only
    f = player("f", (4, 3), (3, 4), (5, 2))  # 7 counted, 9 in all
    g = player("g", (4, 3), (3, 4), (6, 1))  # 7 counted, 8 in all: below f
    h = player("h", (4, 3), (3, 4), (6, 1))  # all equal to g
    order = sorted([a, b, c, d, e, f, g, h], key=lambda p: (p.key(), p.handle))
    assert [p.handle for p in order] == ["d", "e", "c", "a", "b", "f", "g", "h"]
    assert [p.total for p in (d, e, c, a, b, f)] == [14, 14, 12, 11, 10, 7]
    assert g.key() == h.key()  # they share a place (series_compute numbers them)


@pytest.mark.django_db
def test_bad_series_are_refused(api, season, federation_admin, federation):
    series, events = season
    club, handles = federation
    other = one_round(club, "astro", handles[:2], seed=5, game="astronomy")
    api.force_authenticate(federation_admin)
    payload = {
        "name": "Mixed",
        "slug": "mixed",
        "game": "divisor",
        "tournaments": ["open-1", "astro"],
    }
    response = api.post("/api/v1/series/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "series-tournament-game"
    assert not Series.objects.filter(slug="mixed").exists()
    response = api.patch("/api/v1/series/gp-2026/", {"tournaments": ["astro"]}, format="json")
    assert response.json()["error"]["code"] == "series-tournament-game"
    assert list(series.tournaments.values_list("slug", flat=True).order_by("slug")) == [
        "open-1",
        "open-2",
        "open-3",
    ]
    bad_points = {"name": "P", "slug": "p", "game": "divisor", "points": [10, "x"]}
    assert (
        api.post("/api/v1/series/", bad_points, format="json").json()["error"]["code"]
        == "series-points"
    )
    bad_count = {"name": "C", "slug": "c", "game": "divisor", "counted": 0}
    assert (
        api.post("/api/v1/series/", bad_count, format="json").json()["error"]["code"]
        == "series-counted"
    )
    # the model's own guard, whatever writes it
    from tournaments.series import SeriesRefused

    with pytest.raises(SeriesRefused), transaction.atomic():
        series.tournaments.add(other)
    with pytest.raises(SeriesRefused), transaction.atomic():
        other.series.add(series)
    api.force_authenticate(None)
    assert api.post("/api/v1/series/", {"name": "x"}, format="json").status_code in (401, 403)


@pytest.mark.django_db
def test_admin_creates_a_series_and_refuses_another_game(client, season, federation):
    from django.contrib.auth import get_user_model

    club, handles = federation
    other = one_round(club, "astro2", handles[:2], seed=6, game="astronomy")
    admin = get_user_model().objects.create_superuser("boss", "b@example.org", "pw-123456")
    client.force_login(admin)
    divisor = Game.objects.get(key="divisor")
    data = {
        "name": "Autumn cup",
        "slug": "autumn",
        "game": divisor.pk,
        "tournaments": [events.pk for events in season[1][:1]] + [other.pk],
        "points": "[5, 3, 1]",
        "counted": 1,
    }
    response = client.post("/admin/tournaments/series/add/", data)
    assert response.status_code == 200 and not Series.objects.filter(slug="autumn").exists()
    data["tournaments"] = [season[1][0].pk]
    response = client.post("/admin/tournaments/series/add/", data)
    assert response.status_code == 302
    assert Series.objects.get(slug="autumn").tournaments.count() == 1


@pytest.mark.django_db
def test_series_names_only_with_consent(api, client, season):
    from federation.models import Player

    Player.objects.filter(handle="p00").update(display_name="Zoé Secrète", public_name=False)
    body = api.get("/api/v1/series/gp-2026/").json()
    (row,) = [r for r in body["standings"] if r["player"] == "p00"]
    assert row["name"] == "Z. S." and "player_id" not in row
    page = client.get("/series/gp-2026/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Secrète" not in page and "Z. S." in page and "Points et départages" in page
    csv_text = client.get("/series/gp-2026/standings.csv").content.decode()
    assert "Secrète" not in csv_text and "Z. S." in csv_text


@pytest.mark.django_db
def test_csv_cells_starting_like_a_formula_are_escaped(client, season):
    from federation.models import Player

    Player.objects.filter(handle="p00").update(display_name="=HYPERLINK(x)", public_name=True)
    rows = list(
        csv.reader(io.StringIO(client.get("/series/gp-2026/standings.csv").content.decode()))
    )
    (row,) = [r for r in rows if r[1] == "p00"]
    assert row[2] == "'=HYPERLINK(x)"  # shown as text by a spreadsheet, never run
    assert all(not cell.startswith("=") for r in rows for cell in r)
