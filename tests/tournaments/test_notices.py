"""Tournament mails, read on a real SMTP server (``tests.mailserver``): a round's
pairings published (table and seat), a table result waiting for confirmation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from federation.models import Notification
from tests.tournaments.flow import link_accounts, seated, table_record
from tournaments.services import round_pair, round_publish
from tournaments.services.reports import report_submit


def _with_addresses(users: dict) -> None:
    for handle, user in users.items():
        get_user_model().objects.filter(pk=user.pk).update(email=f"{handle}@example.org")


@pytest.mark.django_db
def test_pairings_published_mail_each_seated_player_their_table_and_seat(
    night, organiser, smtp, eager, django_capture_on_commit_callbacks
):
    _with_addresses(link_accounts(night))
    rnd = round_pair(tournament=night, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, by=organiser)
    assert len(smtp.mails) == 12
    table = rnd.tables.get(number=2)
    second = seated(table)[1]
    mail = next(m for m in smtp.mails if m["To"] == f"{second}@example.org")
    assert "table 2, seat 2" in mail["Subject"]
    text = mail.get_content()
    assert f"https://quotient.test/tournaments/{night.slug}/rounds/1/" in text
    assert Notification.objects.filter(key=f"round:{rnd.pk}", sent_at__isnull=False).count() == 12


@pytest.mark.django_db
def test_a_report_mails_the_tables_other_players(
    night, organiser, smtp, eager, django_capture_on_commit_callbacks
):
    rnd = round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    users = link_accounts(night)
    _with_addresses(users)
    table = rnd.tables.get(number=1)
    handles = seated(table)
    with django_capture_on_commit_callbacks(execute=True):
        report = report_submit(
            table=table, user=users[handles[0]], record=table_record(handles, seed=5)
        )
    assert sorted(m["To"] for m in smtp.mails) == sorted(f"{h}@example.org" for h in handles[1:])
    text = smtp.mails[0].get_content()
    report_url = f"https://quotient.test/tournaments/{night.slug}/rounds/1/tables/1/report/"
    assert report_url in text
    assert Notification.objects.filter(key=f"report:{report.pk}").count() == len(handles) - 1
