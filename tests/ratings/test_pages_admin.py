"""The ranking admin: months written YYYY-MM, and "Publish a month" for a closed month
never published (``ratings.services.ranking_request``)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from federation.models import Game
from ratings.models import RankingRun
from ratings.services import MonthOpen, RunRefused, ranking_publish, ranking_request
from tests.builders import record_month

OCT, NOV = dt.date(2026, 10, 1), dt.date(2026, 11, 1)
DECEMBER = dt.datetime(2026, 12, 2, 9, tzinfo=dt.UTC)
PUBLISH = "/admin/ratings/rankingrun/publish/"


@pytest.fixture
def secretary(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("sec", "s@example.org", "pw"))
    return client


@pytest.fixture
def october(federation):
    club, handles = federation
    with time_machine.travel(DECEMBER, tick=False):
        record_month(club=club, handles=handles[:6], month=OCT, count=18, seed=3)
        return ranking_publish(game=Game.objects.get(key="divisor"), month=OCT)


@pytest.mark.django_db
def test_months_are_written_yyyy_mm(secretary, october):
    for path in ["/admin/ratings/rankinglist/", "/admin/ratings/rankingrun/"]:
        page = secretary.get(path).content.decode()
        assert ">2026-10<" in page and "Oct. 1, 2026" not in page, path
        assert "?month=2026-10" in page, path  # the month filter
    assert (
        secretary.get("/admin/ratings/rankinglist/?month=2026-10").context["cl"].result_count == 1
    )
    assert (
        secretary.get("/admin/ratings/rankinglist/?month=2026-09").context["cl"].result_count == 0
    )
    for path in [
        f"/admin/ratings/rankinglist/{october.ranking.pk}/change/",
        f"/admin/ratings/rankingrun/{october.pk}/change/",
    ]:
        page = secretary.get(path).content.decode()
        assert "2026-10" in page and "Oct. 1, 2026" not in page, path
    assert (
        'href="/admin/ratings/rankingrun/publish/"'
        in secretary.get("/admin/ratings/rankingrun/").content.decode()
    )


@pytest.mark.django_db
def test_publishing_a_month_never_run_queues_it_after_commit(
    secretary, october, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr("ratings.admin.enqueue", sent.append)
    with time_machine.travel(DECEMBER, tick=False):
        assert secretary.get(PUBLISH).context["form"]["month"].initial == "2026-11"
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            response = secretary.post(PUBLISH, {"game": "divisor", "month": "2026-11"})
    assert response.status_code == 302 and len(callbacks) == 1
    run = RankingRun.objects.get(month=NOV)
    assert (run.game.key, run.force, run.status, sent) == ("divisor", False, "queued", [run])


@pytest.mark.django_db
def test_every_game_and_the_refusals(secretary, october, monkeypatch):
    monkeypatch.setattr("ratings.admin.enqueue", lambda run: None)
    with time_machine.travel(DECEMBER, tick=False):
        every = secretary.post(PUBLISH, {"game": "all", "month": "2026-10"}, follow=True)
        shown = [str(m) for m in every.context["messages"]]
        assert "divisor 2026-10 is already published: re-run it to publish a new revision" in shown
        assert RankingRun.objects.filter(month=OCT, status="queued").count() == 4
        again = secretary.post(PUBLISH, {"game": "astronomy", "month": "2026-10"})
        assert "already has a run queued or running" in again.content.decode()
        open_month = secretary.post(PUBLISH, {"game": "divisor", "month": "2026-12"})
        assert "2026-12 is still open" in open_month.content.decode()
        bad = secretary.post(PUBLISH, {"game": "divisor", "month": "2026-1"})
        assert "Write the month as YYYY-MM" in bad.content.decode()
    assert RankingRun.objects.filter(month=dt.date(2026, 12, 1)).count() == 0


@pytest.mark.django_db
def test_a_broker_down_leaves_the_run_failed_not_a_500(
    secretary, games, django_capture_on_commit_callbacks, monkeypatch
):
    def down(run):
        raise ConnectionError("redis unreachable")

    monkeypatch.setattr("ratings.admin.enqueue", down)
    with (
        time_machine.travel(DECEMBER, tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = secretary.post(PUBLISH, {"game": "trimorp", "month": "2026-11"})
    assert response.status_code == 302
    run = RankingRun.objects.get()
    assert run.status == "failed" and "could not be queued" in run.message


@pytest.mark.django_db
def test_staff_without_the_right_cannot_publish(client, django_user_model, games):
    client.force_login(django_user_model.objects.create_user("clerk", password="pw", is_staff=True))
    assert client.get(PUBLISH).status_code == 403


@pytest.mark.django_db
def test_the_service_refuses_what_would_do_nothing(october):
    game = Game.objects.get(key="divisor")
    with time_machine.travel(DECEMBER, tick=False):
        with pytest.raises(RunRefused):
            ranking_request(game=game, month=OCT, requested_by="t", enqueue=lambda run: None)
        with pytest.raises(MonthOpen):
            ranking_request(
                game=game, month=dt.date(2026, 12, 1), requested_by="t", enqueue=lambda run: None
            )
        run = ranking_request(game=game, month=NOV, requested_by="t", enqueue=lambda run: None)
    assert (run.month, run.force, run.status) == (NOV, False, "queued")
