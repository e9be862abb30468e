"""Notifications by e-mail, sent to a real SMTP server running in the test (aiosmtpd):
the mails' content and absolute links, the unsubscribe link, the per-kind setting,
at most one mail per key, and a retry after the server refused once."""

from __future__ import annotations

import datetime as dt
import random
import re
from email.message import Message

import pytest

from federation.models import Notification, NotificationSetting
from federation.notifications import Kind, notify
from federation.tasks import send_notification
from scoring.services import match_record
from tests.builders import summary_record
from tests.factories import UserFactory


@pytest.fixture
def linked(players):
    """ana and ben have accounts with addresses; cem has none, dan no address."""
    ana, ben, cem, dan = players
    for player, address in ((ana, "ana@example.org"), (ben, "ben@example.org")):
        player.user = UserFactory(email=address)
        player.save(update_fields=["user"])
    dan.user = UserFactory(email="")
    dan.save(update_fields=["user"])
    return players


def body(mail: Message) -> str:
    return mail.get_content()


def links(mail: Message) -> list[str]:
    return re.findall(r"https?://\S+", body(mail))


def record(club, seed: int = 1):
    table = summary_record(["ana", "ben", "cem", "dan"], random.Random(seed))
    return match_record(club=club, played_on=dt.date(2026, 11, 14), record=table).match


@pytest.mark.django_db
def test_a_recorded_result_mails_each_linked_player_once(
    club, linked, smtp, eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = record(club)
    to = sorted(mail["To"] for mail in smtp.mails)
    # cem: no account, dan: no address
    assert to == ["ana@example.org", "ben@example.org"]
    mail = next(m for m in smtp.mails if m["To"] == "ana@example.org")
    assert "2026-11-14" in mail["Subject"]
    text = body(mail)
    assert f"https://quotient.test/matches/{match.pk}/" in text
    assert all(link.startswith("https://quotient.test/") for link in links(mail))
    assert " ".join(mail["List-Unsubscribe"].split()).startswith(
        "<https://quotient.test/account/notifications/"
    )
    rows = Notification.objects.filter(key=f"match:{match.pk}", sent_at__isnull=False)
    assert rows.count() == 2
    # a second attempt on the same key finds the row and sends nothing
    assert (
        send_notification.apply(
            args=(Kind.RESULT_RECORDED, linked[0].pk, f"match:{match.pk}", {})
        ).get()
        is False
    )
    assert len(smtp.mails) == 2


@pytest.mark.django_db
def test_nothing_is_sent_when_the_write_rolls_back(club, linked, smtp, eager):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        notify(Kind.RESULT_RECORDED, linked[0], "match:999", {})
        raise RuntimeError
    assert smtp.mails == []


@pytest.mark.django_db
def test_the_unsubscribe_link_stops_that_kind_without_login(
    client, club, linked, smtp, eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        record(club)
    mail = next(m for m in smtp.mails if m["To"] == "ana@example.org")
    link = next(u for u in links(mail) if "/unsubscribe/" in u)
    path = link.removeprefix("https://quotient.test")
    page = client.get(path)
    assert page.status_code == 200 and "unsubscribed" not in page.content.decode()
    assert client.post(path).status_code == 200
    assert NotificationSetting.objects.get(player=linked[0]).muted == [Kind.RESULT_RECORDED]
    assert client.get(path[:-5] + "xxxx/").status_code == 410  # a forged token
    smtp.mails.clear()
    with django_capture_on_commit_callbacks(execute=True):
        record(club, seed=2)
    assert [m["To"] for m in smtp.mails] == ["ben@example.org"]


@pytest.mark.django_db
def test_my_player_page_sets_the_kinds_and_the_language(
    client, club, linked, smtp, eager, django_capture_on_commit_callbacks
):
    ana = linked[0]
    client.force_login(ana.user)
    page = client.get("/account/player/")
    assert 'name="kinds"' in page.content.decode()
    kinds = [Kind.PAIRINGS_PUBLISHED, Kind.RESULT_RECORDED]
    answer = client.post("/account/notifications/", {"kinds": kinds, "language": "fr"})
    assert answer.status_code == 302
    found = NotificationSetting.objects.get(player=ana)
    assert set(found.muted) == {Kind.REPORT_TO_CONFIRM, Kind.RANK_PUBLISHED, Kind.DISPUTE_SETTLED}
    with django_capture_on_commit_callbacks(execute=True):
        record(club)
    mail = next(m for m in smtp.mails if m["To"] == "ana@example.org")
    assert "enregistré" in mail["Subject"]  # in French, her choice
    english = next(m for m in smtp.mails if m["To"] == "ben@example.org")
    assert "recorded" in english["Subject"]
    assert not notify(Kind.REPORT_TO_CONFIRM, ana, "report:1", {})  # muted


@pytest.mark.django_db
def test_a_refusing_server_is_tried_again(club, linked, smtp, eager):
    smtp.refuse = 1
    context = {
        "match_url": "https://quotient.test/matches/1/",
        "game": "Divisor",
        "club": "Lyon",
        "played_on": "2026-11-14",
        "rank": 1,
        "points": 30,
    }
    task = (Kind.RESULT_RECORDED, linked[0].pk, "match:1", context)
    result = send_notification.apply(args=task, throw=False)  # the retry runs eagerly
    assert result.get() is True
    assert smtp.refuse == 0 and len(smtp.mails) == 1
    assert Notification.objects.get(key="match:1").sent_at is not None
