"""factory_boy factories for the service's object graph."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from federation.models import Club, Membership, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ["slug"]

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Lyon"
    country = "FR"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player
        django_get_or_create = ["handle"]

    handle = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Sequence(lambda n: f"Player Number{n}")
    club = factory.SubFactory(ClubFactory)
    country = "FR"
    public_name = True


class OrganiserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    club = factory.SubFactory(ClubFactory)
    role = Membership.Role.ORGANISER


class FederationAdminFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    club = None
    role = Membership.Role.FEDERATION_ADMIN
