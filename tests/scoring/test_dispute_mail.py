"""A settled dispute mails the player who opened it (the real SMTP server of
``tests/mailserver.py``): the outcome and the organiser's reason, once, in their
language, and nothing when they turned that kind of mail off."""

from __future__ import annotations

import pytest

from federation.models import Notification, NotificationSetting
from federation.notifications import Kind
from federation.tasks import send_notification
from scoring.disputes import dispute_open, dispute_settle
from scoring.services import match_withdraw
from tests.scoring import test_disputes

pytestmark = pytest.mark.django_db

# the fixtures of the disputes' tests: a match of ana, ben and cem; ana's account
match = test_disputes.match
ana = test_disputes.ana


def _address(user, address: str) -> None:
    user.email = address
    user.save(update_fields=["email"])


def test_a_rejected_dispute_mails_its_player_the_reason_once(
    match, ana, organiser, smtp, eager, django_capture_on_commit_callbacks
):
    _address(ana, "ana@example.org")
    dispute = dispute_open(match=match, user=ana, reason="ben had 32")
    with django_capture_on_commit_callbacks(execute=True):
        dispute_settle(dispute=dispute, by=organiser, outcome="rejected", reason="sheet says 23")
    assert len(smtp.mails) == 1
    mail = smtp.mails[0]
    assert mail["To"] == "ana@example.org"
    assert mail["Subject"] == f"A dispute is settled: {match.game.name} 2026-11-14"
    text = mail.get_content()
    assert "rejected: the match stays as it is." in text
    assert "The reason given: sheet says 23" in text
    assert f"https://quotient.test/matches/{match.pk}/" in text
    key = f"dispute:{dispute.pk}"
    assert Notification.objects.get(kind=Kind.DISPUTE_SETTLED, key=key).sent_at is not None
    player = dispute.player_id
    again = send_notification.apply(args=(Kind.DISPUTE_SETTLED, player, key, {})).get()
    assert again is False and len(smtp.mails) == 1


def test_an_upheld_dispute_in_french(
    match, ana, organiser, players, smtp, eager, django_capture_on_commit_callbacks
):
    _address(ana, "ana@example.org")
    NotificationSetting.objects.create(player=players[0], language="fr")
    dispute = dispute_open(match=match, user=ana, reason="entered twice")
    match_withdraw(match=match, reason="entered twice", by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        dispute_settle(dispute=dispute, by=organiser, outcome="upheld", reason="withdrawn")
    assert len(smtp.mails) == 1
    text = smtp.mails[0].get_content()
    assert "Bonjour" in text and "la partie a été corrigée ou retirée" in text


def test_a_player_who_muted_the_kind_gets_no_mail(
    match, ana, organiser, players, smtp, eager, django_capture_on_commit_callbacks
):
    _address(ana, "ana@example.org")
    NotificationSetting.objects.create(player=players[0], muted=[Kind.DISPUTE_SETTLED])
    dispute = dispute_open(match=match, user=ana, reason="ben had 32")
    with django_capture_on_commit_callbacks(execute=True):
        dispute_settle(dispute=dispute, by=organiser, outcome="rejected", reason="no")
    assert smtp.mails == []
    assert not Notification.objects.filter(kind=Kind.DISPUTE_SETTLED).exists()
