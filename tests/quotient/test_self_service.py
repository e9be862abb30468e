"""Organisers manage their own work: log out, change or reset a password, register a
player of their club; the admin is branded and keeps the scheduler for superusers."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from federation.models import Player
from tests.factories import ClubFactory, OrganiserFactory, UserFactory


@pytest.fixture
def emailed_organiser_client(client, club):
    membership = OrganiserFactory(club=club, user=UserFactory(username="org", email="o@x.org"))
    client.force_login(membership.user)
    return client


@pytest.mark.django_db
def test_logout_is_a_button_that_posts(emailed_organiser_client):
    page = emailed_organiser_client.get("/").content.decode()
    assert re.search(r'<form action="/accounts/logout/" method="post">', page)
    response = emailed_organiser_client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert "_auth_user_id" not in emailed_organiser_client.session


@pytest.mark.django_db
def test_password_change(emailed_organiser_client):
    response = emailed_organiser_client.post(
        "/accounts/password_change/",
        {
            "old_password": "secret-pass-123",
            "new_password1": "a-new-long-pass-42",
            "new_password2": "a-new-long-pass-42",
        },
    )
    assert response.status_code == 302
    assert get_user_model().objects.get(username="org").check_password("a-new-long-pass-42")


@pytest.mark.django_db
def test_password_reset_sends_a_link_that_works(client, club):
    UserFactory(username="org", email="org@club.example")
    client.post("/accounts/password_reset/", {"email": "org@club.example"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and b"new_password1" in form.content
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "brand-new-pass-77", "new_password2": "brand-new-pass-77"},
    )
    assert done.status_code == 302
    assert get_user_model().objects.get(username="org").check_password("brand-new-pass-77")


@pytest.mark.django_db
def test_an_organiser_registers_a_player_of_their_club(emailed_organiser_client, club):
    form = emailed_organiser_client.get("/organiser/players/new/")
    assert form.status_code == 200
    response = emailed_organiser_client.post(
        "/organiser/players/new/",
        {"club": club.slug, "handle": "chloe", "display_name": "Chloé Martin", "country": "FR"},
    )
    assert response.status_code == 302 and response["Location"] == "/players/chloe/"
    assert Player.objects.get(handle="chloe").club == club


@pytest.mark.django_db
def test_a_taken_handle_keeps_the_form(emailed_organiser_client, club):
    Player.objects.create(handle="Chloe", display_name="Another", club=club)
    response = emailed_organiser_client.post(
        "/organiser/players/new/",
        {"club": club.slug, "handle": "chloe", "display_name": "Chloé Martin"},
    )
    assert response.status_code == 200
    assert "already taken" in response.content.decode()
    assert 'value="Chloé Martin"' in response.content.decode()


@pytest.mark.django_db
def test_an_organiser_cannot_register_for_another_club(emailed_organiser_client):
    other = ClubFactory(slug="berlin")
    response = emailed_organiser_client.post(
        "/organiser/players/new/",
        {"club": other.slug, "handle": "hans", "display_name": "Hans"},
    )
    assert response.status_code == 200  # the club is not among the choices
    assert not Player.objects.filter(handle="hans").exists()


@pytest.mark.django_db
def test_a_user_organising_no_club_may_not_register_players(client):
    client.force_login(UserFactory())
    assert client.get("/organiser/players/new/").status_code == 403


@pytest.mark.django_db
def test_the_admin_is_branded_and_hides_the_scheduler_from_secretaries(client, admin_client):
    assert b"Quotient administration" in admin_client.get("/admin/").content
    assert b"Periodic tasks" in admin_client.get("/admin/").content
    secretary = UserFactory(username="secretary", is_staff=True)
    from django.contrib.auth.models import Permission

    secretary.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client.force_login(secretary)
    index = client.get("/admin/").content
    assert b"Quotient administration" in index and b"Periodic tasks" not in index
    assert client.get("/admin/django_celery_beat/periodictask/").status_code == 403


@pytest.mark.django_db
def test_password_reset_mails_are_limited_per_address_and_per_account(client):
    """Issue 20, defect 12: 3 mails an hour per address and per account; past that the
    page answers the same and sends nothing."""
    UserFactory(username="org", email="org@club.example")
    answers = [
        client.post("/accounts/password_reset/", {"email": "org@club.example"}) for _ in range(6)
    ]
    assert [a.status_code for a in answers] == [302] * 6
    assert {a["Location"] for a in answers} == {"/accounts/password_reset/done/"}
    assert len(mail.outbox) == 3
    # the same account under another spelling of its address: the account's budget
    client.post("/accounts/password_reset/", {"email": "ORG@club.example "})
    assert len(mail.outbox) == 3
    # another account is not affected
    UserFactory(username="other", email="other@club.example")
    client.post("/accounts/password_reset/", {"email": "other@club.example"})
    assert len(mail.outbox) == 4 and mail.outbox[-1].to == ["other@club.example"]


@pytest.mark.django_db
def test_password_reset_budget_per_account_across_addresses(client):
    """Two accounts share nothing; one account asked for under three spellings of its
    address gets three mails at most."""
    UserFactory(username="org", email="org@club.example")
    for spelling in [
        "org@club.example",
        "Org@club.example",
        "ORG@club.example",
        "oRg@club.example",
    ]:
        client.post("/accounts/password_reset/", {"email": spelling})
    assert len(mail.outbox) == 3
