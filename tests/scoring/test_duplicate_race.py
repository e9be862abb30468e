"""Two organisers submitting the same match at the same moment: one is stored."""

import datetime as dt
import threading

import pytest
from django.db import IntegrityError, connection, transaction

from scoring.errors import MatchRejected
from scoring.models import Match
from scoring.services import match_record
from tests.factories import PlayerFactory
from tests.samples import SHEET_RECORD

BERLIN_EVENING = dt.datetime(2026, 11, 2, 20, tzinfo=dt.UTC)


@pytest.mark.django_db(transaction=True)
def test_the_twin_that_loses_the_race_is_refused_as_a_duplicate(club):
    for handle in ("ana", "ben", "cem"):
        PlayerFactory(handle=handle, club=club)
    inserted, release = threading.Event(), threading.Event()

    def first():
        # stored, but held uncommitted while the twin passes the early check
        with transaction.atomic():
            match_record(
                club=club, played_on=dt.date(2026, 11, 2), record=SHEET_RECORD, now=BERLIN_EVENING
            )
            inserted.set()
            release.wait(10)
        connection.close()

    thread = threading.Thread(target=first)
    thread.start()
    assert inserted.wait(10)
    threading.Timer(1.0, release.set).start()  # the twin's INSERT waits on the first's key
    with pytest.raises(MatchRejected) as refused:
        match_record(
            club=club, played_on=dt.date(2026, 11, 2), record=SHEET_RECORD, now=BERLIN_EVENING
        )
    thread.join(10)
    assert refused.value.code == "duplicate-match"
    # it got past the early check: the unique constraint is what stopped it
    assert isinstance(refused.value.__context__, IntegrityError)
    assert Match.objects.count() == 1
