"""Astronomy's analysis off the request path: a submission stores the match pending,
a task queued on commit stores the analysis (the same solver call and budget as the
submission used to make), once, at the match's latest version."""

from __future__ import annotations

import datetime as dt

import pytest

from quotient.demo import rename_players
from scoring.analysis import analysis_run
from scoring.engine import engine
from scoring.engine.astronomy import decisive_mistake, decisive_mistake_solved
from scoring.models import Match
from scoring.services import match_correct, match_record

HANDLES = ["ana", "ben"]


def a_record(seed: int, size: int = 5) -> dict:
    record = engine("astronomy").random_record(seed, size=size)
    return rename_players(record, dict(zip(record["players"], HANDLES, strict=True)))


def submit(api, record: dict):
    return api.post(
        "/api/v1/matches/",
        {"club": "lyon", "played_on": "2026-11-03", "record": record},
        format="json",
    )


@pytest.mark.django_db
def test_a_submission_answers_pending_and_the_task_stores_the_analysis(
    api, organiser, players, tasks_in_process, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    record = a_record(3)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = submit(api, record)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["analysis"], body["analysis_state"]) == (None, "pending")
    pk = body["id"]
    assert api.get(f"/api/v1/matches/{pk}/").json()["analysis_state"] == "pending"
    page = api.get(f"/matches/{pk}/").content.decode()
    assert "Analysis pending" in page
    for callback in callbacks:  # the commit: the task runs in-process
        callback()
    detail = api.get(f"/api/v1/matches/{pk}/").json()
    assert detail["analysis_state"] == "done"
    assert detail["analysis"] == {"decisive_mistake": decisive_mistake(record)}
    assert "Analysis pending" not in api.get(f"/matches/{pk}/").content.decode()


@pytest.mark.django_db
def test_other_games_have_no_analysis_state(api, organiser, players):
    api.force_authenticate(organiser)
    record = engine("divisor").random_record(4, players=2, set=6)
    record = rename_players(record, dict(zip(record["players"], HANDLES, strict=True)))
    body = submit(api, record).json()
    assert (body["analysis"], body["analysis_state"]) == (None, "")


@pytest.mark.django_db
def test_running_the_task_twice_stores_one_analysis(club, players):
    record = a_record(5)
    match = match_record(club=club, played_on=dt.date(2026, 11, 3), record=record).match
    assert analysis_run(match.pk, match.version) == "done"
    Match.objects.filter(pk=match.pk).update(analysis={"decisive_mistake": "kept"})
    assert analysis_run(match.pk, match.version) == "stale"  # the redelivered message
    assert Match.objects.get(pk=match.pk).analysis == {"decisive_mistake": "kept"}
    assert analysis_run(10**9, 1) == "stale"  # a match that is not there


@pytest.mark.django_db
def test_a_match_corrected_meanwhile_is_analysed_at_its_latest_version(
    club, players, organiser, tasks_in_process, django_capture_on_commit_callbacks
):
    first, second = a_record(6), a_record(7)
    match = match_record(club=club, played_on=dt.date(2026, 11, 3), record=first).match
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match_correct(match=match, record=second, reason="typo", by=organiser)
    assert len(callbacks) >= 1
    assert analysis_run(match.pk, 1) == "stale"  # the submission's task, too late
    fresh = Match.objects.get(pk=match.pk)
    assert (fresh.version, fresh.analysis_state, fresh.analysis) == (2, "pending", None)
    for callback in callbacks:
        callback()
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.analysis_state == "done"
    assert fresh.analysis == {"decisive_mistake": decisive_mistake(second)}


def test_the_solver_says_when_its_budget_ran_out():
    record = a_record(8, size=8)
    full, complete = decisive_mistake_solved(record)
    assert full == decisive_mistake(record)
    cut, cut_complete = decisive_mistake_solved(record, budget=50)
    assert not cut_complete and cut is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("state", "language", "words"),
    [
        ("failed", "en", "Analysis failed"),
        ("failed", "fr", "Échec de l’analyse"),
        ("failed", "de", "Analyse fehlgeschlagen"),
        ("exhausted", "en", "Analysis budget exhausted"),
        ("exhausted", "fr", "Budget d’analyse épuisé"),
        ("exhausted", "de", "Analysebudget erschöpft"),
        ("pending", "fr", "Analyse en attente"),
        ("pending", "de", "Analyse ausstehend"),
    ],
)
def test_the_match_page_says_what_became_of_the_analysis(
    client, club, players, state, language, words
):
    match = match_record(club=club, played_on=dt.date(2026, 11, 3), record=a_record(3)).match
    analysis = {"decisive_mistake": None} if state == "exhausted" else None
    Match.objects.filter(pk=match.pk).update(analysis_state=state, analysis=analysis)
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page
