"""The monthly list's mails, read on a real SMTP server (``tests.mailserver``): each
ranked player with an account is told their new rank, once per game and month."""

from __future__ import annotations

import datetime as dt

import pytest

from federation.models import Game, Notification, Player
from ratings.models import RankingEntry
from ratings.services import ranking_publish
from tests.builders import record_month
from tests.factories import UserFactory

OCT = dt.date(2026, 10, 1)


@pytest.mark.django_db
def test_the_monthly_list_mails_each_linked_player_their_rank_once(
    federation, smtp, eager, django_capture_on_commit_callbacks
):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=40, seed=1)
    linked = handles[:4]
    for handle in linked:
        Player.objects.filter(handle=handle).update(
            user=UserFactory(username=f"u-{handle}", email=f"{handle}@example.org")
        )
    game = Game.objects.get(key="divisor")
    with django_capture_on_commit_callbacks(execute=True):
        ranking_publish(game=game, month=OCT)
    ranks = dict(
        RankingEntry.objects.filter(
            ranking__month=OCT, player__handle__in=linked, rank__isnull=False
        ).values_list("player__handle", "rank")
    )
    assert ranks  # the test means something: some linked players are ranked
    got = {m["To"]: m for m in smtp.mails}
    assert set(got) == {f"{h}@example.org" for h in ranks}
    for handle, rank in ranks.items():
        mail = got[f"{handle}@example.org"]
        assert f"number {rank}" in mail["Subject"]
        assert "https://quotient.test/rankings/divisor/2026-10/" in mail.get_content()
    # a forced revision of the same month's list mails nobody again
    with django_capture_on_commit_callbacks(execute=True):
        ranking_publish(game=game, month=OCT, force=True)
    assert len(smtp.mails) == len(ranks)
    assert Notification.objects.filter(kind="rank-published").count() == len(ranks)
