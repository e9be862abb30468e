"""Player accounts: a user claims a player, an organiser of its club approves; ``/me``."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from federation.models import Player, PlayerClaim
from federation.players import PlayerRefused, claim_decide, claim_request
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory


@pytest.fixture
def ana(club):
    return PlayerFactory(handle="ana", club=club, display_name="Ana Lima")


@pytest.mark.django_db
def test_a_claim_approved_by_the_clubs_organiser_links_the_account(ana, organiser):
    user = UserFactory()
    claim = claim_request(user=user, handle="ANA")
    assert claim.status == PlayerClaim.Status.PENDING
    assert Player.objects.get(pk=ana.pk).user is None  # nothing linked before approval
    claim_decide(claim=claim, by=organiser, approve=True)
    assert Player.objects.get(pk=ana.pk).user == user
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.APPROVED and claim.decided_by == organiser


@pytest.mark.django_db
def test_another_clubs_organiser_cannot_decide(ana, other_club):
    claim = claim_request(user=UserFactory(), handle="ana")
    stranger = OrganiserFactory(club=other_club).user
    with pytest.raises(PermissionDenied):
        claim_decide(claim=claim, by=stranger, approve=True)
    assert Player.objects.get(pk=ana.pk).user is None


@pytest.mark.django_db
def test_one_player_one_account(ana, organiser):
    first, second = UserFactory(), UserFactory()
    a = claim_request(user=first, handle="ana")
    b = claim_request(user=second, handle="ana")
    with pytest.raises(PlayerRefused) as again:
        claim_request(user=first, handle="ana")
    assert again.value.code == "claim-pending" and again.value.status == 409
    claim_decide(claim=a, by=organiser, approve=True)
    with pytest.raises(PlayerRefused) as taken:
        claim_decide(claim=b, by=organiser, approve=True)
    assert taken.value.code == "player-already-linked"
    with pytest.raises(PlayerRefused) as linked:
        claim_request(user=first, handle="ana")
    assert linked.value.code == "account-already-linked"
    with pytest.raises(PlayerRefused) as decided:
        claim_decide(claim=a, by=organiser, approve=False)
    assert decided.value.code == "claim-decided"


@pytest.mark.django_db
def test_an_unknown_handle_is_refused(club):
    with pytest.raises(PlayerRefused) as unknown:
        claim_request(user=UserFactory(), handle="nobody")
    assert unknown.value.code == "player-unknown"
    assert not PlayerClaim.objects.exists()


@pytest.mark.django_db
def test_me_says_who_the_caller_is(api, ana, organiser):
    assert api.get("/api/v1/me/").status_code == 401
    user = UserFactory(username="ana_l")
    api.force_authenticate(user)
    assert api.get("/api/v1/me/").json() == {
        "username": "ana_l",
        "player": None,
        "clubs": [],
        "roles": [],
    }
    claim_decide(claim=claim_request(user=user, handle="ana"), by=organiser, approve=True)
    assert api.get("/api/v1/me/").json() == {
        "username": "ana_l",
        "player": "ana",
        "clubs": ["lyon"],
        "roles": ["player"],
    }
    api.force_authenticate(organiser)
    body = api.get("/api/v1/me/").json()
    assert body["player"] is None and body["clubs"] == ["lyon"] and body["roles"] == ["organiser"]


@pytest.mark.django_db
def test_the_claim_pages(client, ana, organiser):
    user = UserFactory()
    client.force_login(user)
    page = client.post("/account/player/", {"handle": "nobody"})
    assert page.status_code == 200 and "nobody" in page.content.decode()
    assert client.post("/account/player/", {"handle": "ana"}).status_code == 302
    claim = PlayerClaim.objects.get(user=user)
    assert client.get("/organiser/claims/").context["claims"].count() == 0  # not an organiser
    assert client.post(f"/organiser/claims/{claim.pk}/", {"decision": "approve"}).status_code == 403
    client.force_login(organiser)
    listed = client.get("/organiser/claims/")
    assert "Ana Lima" in listed.content.decode()
    assert client.post(f"/organiser/claims/{claim.pk}/", {"decision": "approve"}).status_code == 302
    assert Player.objects.get(pk=ana.pk).user == user
    client.force_login(user)
    assert "linked to the player ana" in client.get("/account/player/").content.decode()


@pytest.mark.django_db
def test_an_invitation_by_email_links_a_new_account_once(client, ana, organiser, mailoutbox):
    import re

    client.force_login(organiser)
    sent = client.post("/organiser/invitations/new/", {"handle": "ana", "email": "ana@example.org"})
    assert sent.status_code == 302
    (mail,) = mailoutbox
    assert mail.to == ["ana@example.org"]
    link = re.search(r"https://quotient\.test(/account/invitation/[^/]+/)", mail.body).group(1)
    client.logout()
    assert client.get(link).status_code == 200
    created = client.post(
        link, {"username": "ana_l", "password1": "Long-pass-4567", "password2": "Long-pass-4567"}
    )
    assert created.status_code == 302
    assert Player.objects.get(pk=ana.pk).user.username == "ana_l"
    client.logout()
    assert client.get(link).status_code == 410  # used once


@pytest.mark.django_db
def test_an_invitation_expires_after_seven_days(client, ana, organiser):
    import datetime as dt

    from federation.models import PlayerInvitation
    from federation.players import invitation_send

    invitation = invitation_send(player=ana, email="ana@example.org", by=organiser)
    old = invitation.created_at - dt.timedelta(days=7, minutes=1)
    PlayerInvitation.objects.filter(pk=invitation.pk).update(created_at=old)
    user = UserFactory()
    client.force_login(user)
    assert client.post(f"/account/invitation/{invitation.token}/").status_code == 410
    assert Player.objects.get(pk=ana.pk).user is None


@pytest.mark.django_db
def test_only_the_clubs_organiser_invites(ana, other_club):
    from federation.players import invitation_send

    with pytest.raises(PermissionDenied):
        invitation_send(
            player=ana, email="a@example.org", by=OrganiserFactory(club=other_club).user
        )
