"""Fixtures of the scoring tests: the moment they run at (sample records are in
``tests.samples``, the players in ``tests/conftest.py``)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine


@pytest.fixture
def clock():
    """Friday 20 November 2026, noon UTC, the clock stopped: the matches of early November
    are past, on time; November is still open."""
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        yield


@pytest.fixture
def month_end():
    """Sunday 29 November 2026, noon UTC, the clock stopped: every date of November the
    tests use has been played, on time."""
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC), tick=False):
        yield


@pytest.fixture
def tasks_in_process():
    """Celery tasks run in the calling process, as in the quick start (no broker): an
    Astronomy analysis queued on commit is stored before ``on_commit`` returns (wrap the
    submission in ``django_capture_on_commit_callbacks(execute=True)``)."""
    from quotient.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
