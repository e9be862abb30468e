"""Dates in every language: every ``<input type="date">`` of the site carries
``YYYY-MM-DD`` (a browser shows any other value blank), and every form's date field
is ``core.dates.DateField``'s widget."""

from __future__ import annotations

import datetime as dt
import importlib
import inspect
import re
from pathlib import Path

import pytest
import time_machine
from django import forms

from core.dates import DateInput
from tests.factories import PlayerFactory

ROOT = Path(__file__).resolve().parents[2]
PAGES = (
    "/matches/enter/divisor/sheet/",
    "/matches/enter/dominyam/",
    "/matches/enter/astronomy/",
    "/matches/submit/",
    "/matches/import/",
    "/tournaments/new/",
)
DATE_INPUT = re.compile(r'<input type="date" name="(\w+)" value="([^"]*)"')


@pytest.fixture(autouse=True)
def november_25():
    with time_machine.travel(dt.datetime(2026, 11, 25, 12, tzinfo=dt.UTC), tick=False):
        yield


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "de", "en"])
def test_every_date_input_carries_an_iso_date_in_every_language(client, organiser, language):
    client.force_login(organiser)
    for path in PAGES:
        page = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<html lang="{language}"' in page
        found = DATE_INPUT.findall(page)
        assert found, path
        for name, value in found:
            assert value in ("", "2026-11-25"), (path, name, value)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_table_result_date_is_iso_too(client, organiser, club, language):
    from federation.models import Game
    from tournaments import services

    handles = [f"p{n}" for n in range(4)]
    for handle in handles:
        PlayerFactory(handle=handle, club=club)
    tournament = services.tournament_create(
        name="Open",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 25),
        table_sizes=[4],
        rounds_planned=3,
    )
    from federation.models import Player

    services.registrations_add(
        tournament=tournament, handles=" ".join(handles), check_in=True, by=organiser
    )
    rnd = services.round_pair(tournament=tournament, by=organiser)
    services.round_publish(round=rnd, by=organiser)
    assert Player.objects.count() == 4
    client.force_login(organiser)
    page = client.get(
        f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/", HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert DATE_INPUT.findall(page) == [("played_on", "2026-11-25")]


def _forms_of_the_project():
    for path in ROOT.glob("*/**/*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in ("tests", ".venv", "var", "bench", "deploy") or "migrations" in parts:
            continue
        source = path.read_text(encoding="utf-8")
        if "DateField" not in source or "forms" not in source:
            continue
        module = importlib.import_module(".".join((*parts[:-1], path.stem)))
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, forms.BaseForm) and value.__module__ == module.__name__:
                yield value


def test_every_forms_date_field_is_the_iso_date_input():
    seen = 0
    for form_class in _forms_of_the_project():
        for name, field in form_class.base_fields.items():
            if isinstance(field, forms.DateField):
                seen += 1
                assert isinstance(field.widget, DateInput), f"{form_class.__name__}.{name}"
    assert seen >= 3
