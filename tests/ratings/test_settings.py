"""The ranking parameters setting: one window for submission and for the month close."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from federation.models import Game
from ratings.close import ranking_params
from ratings.services import ranking_publish
from tests.builders import BERLIN, record_month, summary_record

APR, OCT, NOV = dt.date(2026, 4, 1), dt.date(2026, 10, 1), dt.date(2026, 11, 1)
SIX_MONTHS = {"window": 6, "plateau": 2, "min_results": 5, "model": "PlackettLuce"}


@pytest.mark.django_db
def test_the_window_of_the_ranking_parameters_rules_submission_and_month_close(federation):
    from scoring.services import match_record

    club, handles = federation
    with override_settings(RANKING_PARAMS=SIX_MONTHS):
        # played in April, received in November: 7 months later, too old for a 6-month window
        recorded = match_record(
            club=club,
            played_on=dt.date(2026, 4, 20),
            record=summary_record(handles[:3], random.Random(1)),
            now=dt.datetime(2026, 11, 2, 12, tzinfo=BERLIN),
        )
        assert recorded.match.counted_month is None
        assert recorded.warnings == [("too-old-to-rate", {"months": 6})]
        record_month(club=club, handles=handles[8:], month=APR, count=6, seed=51)  # age 6 in Oct
        record_month(club=club, handles=handles[:8], month=OCT, count=10, seed=52)
        october = ranking_publish(game=Game.objects.get(key="divisor"), month=OCT).ranking
    assert october.parameters["window"] == 6
    assert october.results_counted == 10  # April's results have aged out of a 6-month window
    assert not october.entries.filter(player__handle__in=handles[8:]).exists()
    # the default window of 12 would have rated both
    again = match_record(
        club=club,
        played_on=dt.date(2026, 4, 21),
        record=summary_record(handles[:3], random.Random(2)),
        now=dt.datetime(2026, 11, 2, 12, tzinfo=BERLIN),
    )
    assert again.match.counted_month == NOV and again.warnings[0][0] == "late-result"
    forced = ranking_publish(game=Game.objects.get(key="divisor"), month=OCT, force=True).ranking
    assert forced.parameters["window"] == 12 and forced.results_counted == 16


def test_ranking_params_come_from_the_setting():
    assert ranking_params().window == 12
    with override_settings(RANKING_PARAMS={**SIX_MONTHS, "model": "BradleyTerryFull"}):
        assert (ranking_params().window, ranking_params().model) == (6, "BradleyTerryFull")
    for bad in ({**SIX_MONTHS, "plateau": 6}, {**SIX_MONTHS, "windows": 6}):
        with override_settings(RANKING_PARAMS=bad), pytest.raises(ImproperlyConfigured):
            ranking_params()


def test_the_settings_check_refuses_bad_parameters():
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    elo = {**SIX_MONTHS, "model": "Elo"}
    with override_settings(RANKING_PARAMS=elo), pytest.raises(SystemCheckError, match="E001"):
        call_command("check")


def test_ranking_params_from_the_environment_fail_loudly(monkeypatch):
    from core.env import env_json

    monkeypatch.setenv("RANKING_PARAMS", '{"window": 18}')
    assert env_json("RANKING_PARAMS", {}) == {"window": 18}
    monkeypatch.setenv("RANKING_PARAMS", " ")
    assert env_json("RANKING_PARAMS", {"x": 1}) == {"x": 1}
    for bad in ('{"window": 18', "[18]", "18"):
        monkeypatch.setenv("RANKING_PARAMS", bad)
        with pytest.raises(ImproperlyConfigured):
            env_json("RANKING_PARAMS", {})
