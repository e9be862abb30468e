"""The player page (per game a headline, a chart of number and rank by month, "why my
number changed") and its API, ``GET /api/v1/players/{handle}/rankings/{game}/{month}/``."""

from __future__ import annotations

import datetime as dt
import re
from xml.etree import ElementTree

import pytest
import time_machine

from federation.models import Game, Player
from federation.months import age, month_index
from quotient.charts import ChartWords, MonthPoint, ranking_chart
from ratings.engine.params import Params, weight
from ratings.models import RankingEntry
from ratings.services import ranking_publish
from ratings.storage import month_results
from scoring.models import Match
from scoring.services import match_withdraw
from tests.builders import BERLIN, record_month

MAY, AUG, SEP, OCT = (dt.date(2026, m, 1) for m in (5, 8, 9, 10))
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def history(federation, django_user_model):
    """p00-p07 play in May, August, September and October (one October result of p00
    arrives late, in November: it is not in October's list; one is withdrawn);
    September and October are published."""
    club, handles = federation
    admin = django_user_model.objects.create_superuser("sec", "s@example.org", "pw-123456")
    game = Game.objects.get(key="divisor")
    with time_machine.travel(dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC), tick=False):
        for month, seed in [(MAY, 1), (AUG, 2), (SEP, 3), (OCT, 4)]:
            record_month(club=club, handles=handles[:8], month=month, count=24, seed=seed)
        late = dt.datetime(2026, 11, 1, 10, tzinfo=BERLIN)
        record_month(club=club, handles=["p00", "p01"], month=OCT, count=1, seed=9, received=late)
        withdrawn = Match.objects.filter(seats__player__handle="p00", played_on__gte=SEP).first()
        match_withdraw(match=withdrawn, reason="entered twice", by=admin)
        ranking_publish(game=game, month=SEP)
        october = ranking_publish(game=game, month=OCT).ranking
    return october, withdrawn


@pytest.mark.django_db
def test_why_my_number_changed_api(api, history):
    october, withdrawn = history
    entry = october.entries.select_related("player").get(player__handle="p00")
    body = api.get("/api/v1/players/P00/rankings/divisor/2026-10/").json()
    assert list(body) == ["fladub", "rank", "results"]
    assert (body["fladub"], body["rank"]) == (entry.fladub, entry.rank)
    assert len(body["results"]) == entry.results_counted
    params = Params.from_dict(october.parameters)
    matches = Match.objects.in_bulk([r["match"] for r in body["results"]])
    for result in body["results"]:
        assert list(result) == ["match", "played_on", "age", "weight"]
        match = matches[result["match"]]
        assert result["played_on"] == match.played_on.isoformat()
        assert result["age"] == age(match.played_on, OCT)
        assert result["weight"] == weight(result["age"], params)
    assert {r["age"] for r in body["results"]} == {0, 1, 2, 5}
    assert {r["weight"] for r in body["results"]} == {1.0, 0.7}
    assert withdrawn.pk not in matches
    assert all(m.counted_month <= OCT for m in matches.values())  # not the late one
    dates = [r["played_on"] for r in body["results"]]
    assert dates == sorted(dates, reverse=True)
    # the very results the month close read for this player
    window = month_results(october.game, OCT, params)
    keys = {r.key for r in window if str(entry.player_id) in r.players}
    assert keys == {f"{m.played_on.isoformat()}:{m.fingerprint}" for m in matches.values()}


@pytest.mark.django_db
def test_why_api_errors(api, history):
    assert api.get("/api/v1/players/nobody/rankings/divisor/2026-10/").status_code == 404
    response = api.get("/api/v1/players/p00/rankings/divisor/2026-7/")
    assert (response.status_code, response.json()) == (400, {"month": "Use YYYY-MM, e.g. 2026-11."})
    response = api.get("/api/v1/players/p00/rankings/divisor/2026-07/")
    assert response.json() == {"detail": "no published divisor ranking for 2026-07"}
    response = api.get("/api/v1/players/p11/rankings/divisor/2026-10/")
    assert (response.status_code, response.json()) == (
        404,
        {"detail": "p11 is not in the divisor ranking of 2026-10"},
    )


@pytest.mark.django_db
def test_the_player_page_headline_chart_and_why(client, history):
    october, _ = history
    entry = october.entries.get(player__handle="p00")
    september = RankingEntry.objects.get(ranking__month=SEP, player__handle="p00")
    response = client.get("/players/p00/")
    page = response.content.decode()
    headline = re.search(r'<dl class="headline">(.*?)</dl>', page, re.S).group(1)
    values = [
        re.sub(r"<[^>]+>", "", v).strip() for v in re.findall(r"<dd>(.*?)</dd>", headline, re.S)
    ]
    change = entry.fladub - september.fladub
    assert values[0:2] == [str(entry.rank), str(entry.fladub)]
    assert values[3] == (f"+{change}" if change > 0 else str(change))
    svg = ElementTree.fromstring(re.search(r"<svg.*?</svg>", page, re.S).group(0))
    assert svg.find(f"{SVG}title").text == "Divisor dominoes: ranking number and rank by month"
    assert len(svg.findall(f"{SVG}circle")) == 4  # two months, number and rank
    why = re.search(r'<section id="why".*?</section>', page, re.S).group(0)
    assert "Why my number changed: Divisor dominoes, 2026-10" in why
    assert f"{september.fladub} in 2026-09, {entry.fladub} now." in why
    assert f"The number counts {entry.results_counted} result" in why
    assert "corrected or withdrawn since then" not in why  # as published
    table = re.search(r'<table class="why-results">.*?</table>', page, re.S).group(0)
    assert table.count("<tr>") == entry.results_counted + 1
    assert "0.7" in table and "/matches/" in table


@pytest.mark.django_db
def test_why_for_another_month_and_after_a_withdrawal(client, history, django_user_model):
    september = RankingEntry.objects.get(ranking__month=SEP, player__handle="p00")
    page = client.get("/players/p00/?game=divisor&month=2026-09").content.decode()
    assert "Why my number changed: Divisor dominoes, 2026-09" in page
    assert f"{september.fladub}: not listed the month before." in page  # August: no list
    assert f"The number counts {september.results_counted} result" in page
    table = re.search(r'<table class="why-results">.*?</table>', page, re.S).group(0)
    counted = re.search(r'<a href="/matches/(\d+)/">', table).group(1)
    match = Match.objects.get(pk=int(counted))
    match_withdraw(match=match, reason="wrong table", by=django_user_model.objects.get())
    later = client.get("/players/p00/?game=divisor&month=2026-09").content.decode()
    assert f"The number counts {september.results_counted - 1} result" in later
    assert "corrected or withdrawn since then" in later
    missing = client.get("/players/p00/?game=divisor&month=2026-08")
    assert missing.status_code == 200
    assert "divisor 2026-08: this player is not in that list." in missing.content.decode()


@pytest.mark.django_db
def test_a_player_never_listed(client, history):
    Player.objects.filter(handle="p11").update(display_name="Never Listed")
    page = client.get("/players/p11/").content.decode()
    assert "Not in any published list yet." in page and "<svg" not in page


def test_the_chart_is_plain_svg_that_breaks_at_missing_months():
    points = [
        MonthPoint(month_index("2026-01"), 1500, None),
        MonthPoint(month_index("2026-02"), 1520, 9),
        MonthPoint(month_index("2026-03"), 1490, 12),
        MonthPoint(month_index("2026-05"), 1560, 3),
    ]
    words = ChartWords("A <title>", "desc & more", "Number", "Rank")
    svg = ElementTree.fromstring(ranking_chart(points, words, ident="c1"))
    assert svg.get("viewBox").startswith("0 0 400 ") and svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "A <title>"  # escaped, parsed back
    lines = svg.findall(f"{SVG}polyline")
    assert [(ln.get("class"), len(ln.get("points").split())) for ln in lines] == [
        ("number", 3),  # January to March; May stands alone
        ("rank", 2),  # February, March: January was provisional
    ]
    numbers = svg.findall(f"{SVG}circle[@class='number']")
    ys = [float(c.get("cy")) for c in numbers]
    assert ys[3] == min(ys) and ys[2] == max(ys)  # the highest number at the top
    ranks = svg.findall(f"{SVG}circle[@class='rank']")
    assert float(ranks[2].get("cy")) < float(ranks[1].get("cy"))  # rank 3 above rank 12
    assert ranking_chart([], words, ident="c2") == ""
    alone = ElementTree.fromstring(ranking_chart(points[:1], words, ident="c3"))
    assert alone.findall(f"{SVG}polyline") == [] and len(alone.findall(f"{SVG}circle")) == 1
