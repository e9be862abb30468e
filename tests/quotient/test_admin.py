"""The admin a federation secretary uses: every page loads, records are read-only."""

import datetime as dt

import pytest

from federation.models import Game
from ratings.services import ranking_publish
from scoring.models import Match
from tests.builders import record_month


@pytest.fixture
def secretary(django_user_model):
    return django_user_model.objects.create_superuser("secretary", "s@example.org", "pw-123456")


@pytest.mark.django_db
def test_admin_pages_load(client, secretary, federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=dt.date(2026, 10, 1), count=8, seed=1)
    run = ranking_publish(game=Game.objects.get(key="divisor"), month=dt.date(2026, 10, 1))
    client.force_login(secretary)
    match = Match.objects.first()
    for path in [
        "/admin/",
        "/admin/scoring/match/",
        f"/admin/scoring/match/{match.pk}/change/",
        "/admin/scoring/match/?game__id__exact=1&verification__exact=summary",
        "/admin/scoring/match/?q=p01",
        "/admin/federation/player/?q=p0",
        "/admin/federation/club/",
        "/admin/federation/game/",
        "/admin/tournaments/tournament/",
        "/admin/tournaments/table/",
        "/admin/scoring/importjob/",
        "/admin/federation/membership/",
        "/admin/ratings/rankinglist/",
        f"/admin/ratings/rankinglist/{run.ranking.pk}/change/",
        "/admin/ratings/rankingrun/",
    ]:
        assert client.get(path).status_code == 200, path
    runs = client.get("/admin/ratings/rankingrun/").content.decode()
    total = run.players_total
    assert total > 0 and f"{total} / {total} (100 %)" in runs  # progress: players processed
    assert client.get("/admin/scoring/match/add/").status_code == 403  # entered via the service


@pytest.mark.django_db
def test_admin_rerun_action_queues_a_forced_run_after_commit(
    client, secretary, federation, django_capture_on_commit_callbacks
):
    from ratings.models import RankingRun

    game = Game.objects.get(key="divisor")
    old = RankingRun.objects.create(game=game, month=dt.date(2026, 10, 1), status="published")
    client.force_login(secretary)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(
            "/admin/ratings/rankingrun/", {"action": "rerun_forced", "_selected_action": [old.pk]}
        )
    assert len(callbacks) == 1
    assert RankingRun.objects.filter(force=True, status="queued").count() == 1
