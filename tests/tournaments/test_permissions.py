"""Who may run a tournament on the pages: its club's organisers and federation admins."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from federation.models import Game
from tests.factories import OrganiserFactory
from tournaments.models import Round
from tournaments.services import registrations_add, round_pair, tournament_create


@pytest.mark.django_db
def test_another_clubs_organiser_gets_a_403_on_every_organiser_page(client, night, other_club):
    reg = night.registrations.first()
    client.force_login(OrganiserFactory(club=other_club).user)
    base = f"/tournaments/{night.slug}"
    assert client.get(f"{base}/manage/").status_code == 403
    assert client.get(f"{base}/manage/event.json").status_code == 403
    for path in [
        "/manage/pair/",
        "/manage/registrations/",
        f"/manage/registrations/{reg.pk}/check-in/",
        f"/manage/registrations/{reg.pk}/withdraw/",
        "/manage/late/",
        "/manage/rounds/1/publish/",
    ]:
        assert client.post(base + path, {"handles": "p00"}).status_code == 403, path
    assert client.get(f"{base}/rounds/1/tables/1/result/").status_code == 403
    assert not Round.objects.exists()
    assert client.get(f"{base}/standings/").status_code == 200  # public pages stay public


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_log_in(client, night):
    response = client.post(f"/tournaments/{night.slug}/manage/pair/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client.get("/tournaments/new/").status_code == 302


@pytest.mark.django_db
def test_the_services_check_the_club_too(night, other_club, federation_admin):
    stranger = OrganiserFactory(club=other_club).user
    with pytest.raises(PermissionDenied):
        round_pair(tournament=night, by=stranger)
    with pytest.raises(PermissionDenied):
        registrations_add(tournament=night, handles="p00", by=stranger)
    with pytest.raises(PermissionDenied):
        tournament_create(
            name="Not mine",
            game=Game.objects.get(key="divisor"),
            club=night.club,
            starts_on=night.starts_on,
            table_sizes=[2],
            rounds_planned=1,
            created_by=stranger,
        )
    assert round_pair(tournament=night, by=federation_admin).number == 1
