"""Disputes of recorded matches: a seated linked player contests within 14 days; the
club's organisers or a federation admin settle (upheld after a correction or a
withdrawal, or rejected with a reason); the players see the outcome."""

from __future__ import annotations

import datetime as dt
import random

import pytest
import time_machine
from django.urls import reverse

from scoring.models import Dispute, Match, Status
from scoring.services import match_record, match_withdraw
from tests.builders import summary_record
from tests.factories import OrganiserFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(clock, club, players) -> Match:
    """A match of ana, ben and cem, recorded now (20 November 2026)."""
    record = summary_record(["ana", "ben", "cem"], random.Random(7))
    return match_record(club=club, played_on=dt.date(2026, 11, 14), record=record).match


@pytest.fixture
def ana(players):
    user = UserFactory(username="ana-account")
    players[0].user = user
    players[0].save(update_fields=["user"])
    return user


@pytest.fixture
def dan(players):
    """Linked to dan, a player of the club who did not play the match."""
    user = UserFactory(username="dan-account")
    players[3].user = user
    players[3].save(update_fields=["user"])
    return user


def contest(api, match, user, reason="ben's points were 32, not 23"):
    api.force_authenticate(user)
    return api.post(
        reverse("api-match-disputes", args=[match.pk]), {"reason": reason}, format="json"
    )


def settle(api, dispute, user, outcome, reason="checked the sheet"):
    api.force_authenticate(user)
    return api.post(
        reverse("api-dispute-settle", args=[dispute.match_id, dispute.pk]),
        {"outcome": outcome, "reason": reason},
        format="json",
    )


def test_a_seated_player_contests_once_while_open(api, match, ana):
    first = contest(api, match, ana)
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "open" and first.json()["player"] == "ana"
    second = contest(api, match, ana, "again")
    assert second.status_code == 409
    assert second.json()["error"]["code"] == "dispute-already-open"
    assert Dispute.objects.filter(match=match).count() == 1


def test_anyone_not_seated_is_refused(api, match, dan, organiser):
    answer = contest(api, match, dan)
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "dispute-not-seated"
    assert contest(api, match, organiser).status_code == 403  # no linked player
    api.force_authenticate(None)
    assert api.post(
        reverse("api-match-disputes", args=[match.pk]), {"reason": "x"}
    ).status_code in (
        401,
        403,
    )
    assert not Dispute.objects.exists()


def test_a_reason_is_required(api, match, ana):
    answer = contest(api, match, ana, "   ")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "dispute-reason-required"
    api.force_authenticate(ana)
    empty = api.post(reverse("api-match-disputes", args=[match.pk]), {}, format="json")
    assert empty.status_code == 400
    assert not Dispute.objects.exists()


def test_after_fourteen_days_it_is_too_late(api, match, ana):
    with time_machine.travel(dt.datetime(2026, 12, 4, 11, tzinfo=dt.UTC), tick=False):
        assert contest(api, match, ana).status_code == 201  # 13 days 23 hours
    Dispute.objects.all().delete()
    with time_machine.travel(dt.datetime(2026, 12, 4, 13, tzinfo=dt.UTC), tick=False):
        answer = contest(api, match, ana)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "dispute-too-late"
    assert answer.json()["error"]["params"]["days"] == 14


def test_a_withdrawn_match_cannot_be_contested(api, match, ana, organiser):
    match_withdraw(match=match, reason="entered twice", by=organiser)
    answer = contest(api, match, ana)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "dispute-withdrawn"


def test_rejected_with_a_reason_and_the_player_sees_it(api, match, ana, organiser):
    dispute = Dispute.objects.get(pk=contest(api, match, ana).json()["id"])
    no_reason = settle(api, dispute, organiser, "rejected", "")
    assert no_reason.status_code == 400
    assert no_reason.json()["error"]["code"] == "dispute-settle-reason-required"
    bad = settle(api, dispute, organiser, "maybe")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "dispute-outcome"
    answer = settle(api, dispute, organiser, "rejected", "the sheet says 23")
    assert answer.status_code == 200, answer.content
    dispute.refresh_from_db()
    assert dispute.status == "rejected" and dispute.settled_by == organiser
    assert dispute.settled_reason == "the sheet says 23" and dispute.settled_at is not None
    again = settle(api, dispute, organiser, "upheld")
    assert again.status_code == 409 and again.json()["error"]["code"] == "dispute-settled"
    api.force_authenticate(ana)
    seen = api.get(reverse("api-match-disputes", args=[match.pk])).json()
    assert [(row["status"], row["settled_reason"]) for row in seen] == [
        ("rejected", "the sheet says 23")
    ]
    match.refresh_from_db()
    assert match.status == Status.RECORDED  # a rejected dispute changes nothing
    assert contest(api, match, ana, "still wrong").status_code == 201  # settled: again


def test_upheld_only_after_a_withdrawal_or_correction(api, match, ana, federation_admin):
    dispute = Dispute.objects.get(pk=contest(api, match, ana).json()["id"])
    unchanged = settle(api, dispute, federation_admin, "upheld")
    assert unchanged.status_code == 409
    assert unchanged.json()["error"]["code"] == "dispute-uphold-unchanged"
    match_withdraw(match=match, reason=f"dispute #{dispute.pk}: entered twice", by=federation_admin)
    answer = settle(api, dispute, federation_admin, "upheld", "withdrawn")
    assert answer.status_code == 200 and answer.json()["status"] == "upheld"
    reasons = list(match.events.values_list("action", "reason"))
    assert ("withdrawn", f"dispute #{dispute.pk}: entered twice") in reasons


def test_only_the_clubs_organisers_and_admins_settle(api, match, ana, dan, other_club):
    dispute = Dispute.objects.get(pk=contest(api, match, ana).json()["id"])
    stranger = OrganiserFactory(club=other_club).user
    for user in (stranger, ana, dan):
        assert settle(api, dispute, user, "rejected").status_code == 403
    dispute.refresh_from_db()
    assert dispute.status == "open"


def test_who_reads_a_matchs_disputes(api, match, ana, dan, organiser, other_club):
    contest(api, match, ana)
    url = reverse("api-match-disputes", args=[match.pk])
    for user in (ana, organiser):
        api.force_authenticate(user)
        assert len(api.get(url).json()) == 1
    for user in (dan, OrganiserFactory(club=other_club).user):
        api.force_authenticate(user)
        assert api.get(url).status_code == 403


def test_the_match_page_contest_form_and_outcome(client, match, ana, dan):
    page = reverse("match-detail", args=[match.pk])
    client.force_login(dan)
    assert "Contest this result" not in client.get(page).content.decode()
    client.force_login(ana)
    assert "Contest this result" in client.get(page).content.decode()
    answer = client.post(reverse("match-contest", args=[match.pk]), {"reason": "wrong pips"})
    assert answer.status_code == 302
    dispute = Dispute.objects.get()
    assert dispute.reason == "wrong pips" and dispute.player.handle == "ana"
    again = client.post(reverse("match-contest", args=[match.pk]), {"reason": "x"}, follow=True)
    assert "already contest" in again.content.decode()
    assert Dispute.objects.count() == 1
    dispute.status, dispute.settled_reason = "rejected", "the sheet is right"
    dispute.save()
    assert "the sheet is right" in client.get(page).content.decode()
    with time_machine.travel(dt.datetime(2026, 12, 5, tzinfo=dt.UTC), tick=False):
        assert "Contest this result" not in client.get(page).content.decode()  # too late


def test_the_disputes_page_lists_and_settles(
    client, match, ana, organiser, other_club, federation_admin
):
    Dispute.objects.create(match=match, player=match.seats.first().player, reason="wrong pips")
    client.force_login(organiser)
    listed = client.get(reverse("dispute-list"), {"club": "lyon"})
    assert listed.status_code == 200 and "wrong pips" in listed.content.decode()
    assert reverse("match-correct", args=[match.pk]) in listed.content.decode()
    dispute = Dispute.objects.get()
    done = client.post(
        reverse("dispute-settle", args=[dispute.pk]),
        {"outcome": "rejected", "reason": "the sheet is right"},
    )
    assert done.status_code == 302
    dispute.refresh_from_db()
    assert dispute.status == "rejected"
    assert "wrong pips" not in client.get(reverse("dispute-list")).content.decode()  # open only
    closed = client.get(reverse("dispute-list"), {"status": "rejected"}).content.decode()
    assert "the sheet is right" in closed
    client.force_login(OrganiserFactory(club=other_club).user)
    assert (
        "wrong pips"
        not in client.get(reverse("dispute-list"), {"status": "rejected"}).content.decode()
    )
    client.force_login(federation_admin)
    assert (
        "wrong pips"
        in client.get(
            reverse("dispute-list"), {"status": "rejected", "club": "lyon"}
        ).content.decode()
    )


def test_the_ranking_explanation_says_disputed_matches_count(client, games):
    text = client.get(reverse("ranking-about")).content.decode()
    assert "still count until the dispute is settled" in text


def test_the_admin_lists_disputes_by_club_and_status(client, match, ana, organiser, other_club):
    from django.contrib.auth.models import Permission

    Dispute.objects.create(match=match, player=match.seats.first().player, reason="wrong pips")
    url = reverse("admin:scoring_dispute_changelist")
    admin_user = UserFactory(username="secretary", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    assert "wrong pips" in client.get(url, {"status__exact": "open"}).content.decode()
    club_id = match.club_id
    assert "wrong pips" in client.get(url, {"match__club__id__exact": club_id}).content.decode()
    assert "wrong pips" not in client.get(url, {"status__exact": "rejected"}).content.decode()
    view = Permission.objects.get(codename="view_dispute")
    stranger = OrganiserFactory(club=other_club, user=UserFactory(username="berliner")).user
    for user in (organiser, stranger):
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        user.user_permissions.add(view)
    client.force_login(organiser)
    assert "wrong pips" in client.get(url).content.decode()
    client.force_login(stranger)
    assert "wrong pips" not in client.get(url).content.decode()  # another club's


def test_the_database_holds_one_open_dispute_per_player_and_match(match, players):
    from django.db import IntegrityError, transaction

    Dispute.objects.create(match=match, player=players[0], reason="one")
    with pytest.raises(IntegrityError), transaction.atomic():
        Dispute.objects.create(match=match, player=players[0], reason="two")
    Dispute.objects.update(status="rejected")
    Dispute.objects.create(match=match, player=players[0], reason="after the first")
    assert Dispute.objects.filter(status="open").count() == 1
