"""API tokens: made, listed and revoked by their owner on the site, expiring, their
last use noted; a revoked or expired token is a 401; DRF's old tokens carried over."""

from __future__ import annotations

import datetime as dt
import importlib
import re

import pytest
import time_machine
from django.apps import apps
from django.db import connection
from django.utils import timezone

from quotient.accounts.models import ApiToken
from quotient.accounts.tokens import key_digest, token_create
from tests.factories import UserFactory

PLAYER = {"handle": "dora", "display_name": "Dora Lenz", "club": "lyon"}


def write_with(api, key: str, handle: str = "dora"):
    """A write that needs a login (registering a player of the organiser's club)."""
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api.post("/api/v1/players/", {**PLAYER, "handle": handle}, format="json")


@pytest.mark.django_db
def test_an_owner_makes_lists_and_revokes_a_token_on_the_site(client, api, organiser):
    client.force_login(organiser)
    made = client.post("/accounts/tokens/", {"name": "results script"})
    assert made.status_code == 200
    (key,) = re.findall(r"<code class=\"secret\" data-token>([0-9a-f]{40})</code>", made.text)
    token = ApiToken.objects.get(user=organiser)
    assert token.name == "results script" and token.digest == key_digest(key)
    assert key not in client.get("/accounts/tokens/").text  # shown once
    assert f"{key[:6]}…" in client.get("/accounts/tokens/").text

    assert write_with(api, key).status_code == 201
    token.refresh_from_db()
    assert token.last_used_at is not None
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    refused = write_with(api, key, handle="emil")
    assert refused.status_code == 401 and refused["WWW-Authenticate"] == "Token"
    assert "revoked" in client.get("/accounts/tokens/").text


@pytest.mark.django_db
def test_only_its_owner_revokes_a_token(client, api, organiser):
    key = token_create(user=organiser, name="Lyon results script").key
    client.force_login(UserFactory(username="someone-else"))
    client.post(f"/accounts/tokens/{ApiToken.objects.get().pk}/revoke/")
    assert write_with(api, key).status_code == 201
    assert "Lyon results script" not in client.get("/accounts/tokens/").text


@pytest.mark.django_db
def test_a_token_expires_after_the_configured_lifetime(api, organiser, settings):
    settings.TOKEN_LIFETIME_DAYS = 30
    start = timezone.now()
    issued = token_create(user=organiser, name="a month", now=start)
    assert issued.token.expires_at == start + dt.timedelta(days=30)
    with time_machine.travel(start + dt.timedelta(days=29)):
        assert write_with(api, issued.key).status_code == 201
    with time_machine.travel(start + dt.timedelta(days=30, seconds=1)):
        assert write_with(api, issued.key, handle="emil").status_code == 401


@pytest.mark.django_db
def test_the_default_lifetime_is_a_year(organiser):
    token = token_create(user=organiser, name="default").token
    assert token.expires_at - token.created_at == dt.timedelta(days=365)


@pytest.mark.django_db
def test_the_last_use_is_written_at_most_once_a_minute(api, organiser):
    start = timezone.now()
    issued = token_create(user=organiser, name="busy", now=start)
    with time_machine.travel(start, tick=False):
        write_with(api, issued.key)
    with time_machine.travel(start + dt.timedelta(seconds=30), tick=False):
        api.get("/api/v1/players/")
    issued.token.refresh_from_db()
    assert issued.token.last_used_at == start
    with time_machine.travel(start + dt.timedelta(minutes=2), tick=False):
        api.get("/api/v1/players/")
    issued.token.refresh_from_db()
    assert issued.token.last_used_at == start + dt.timedelta(minutes=2)


@pytest.mark.django_db
def test_the_token_login_issues_a_named_token_its_owner_sees(api, client, organiser):
    answer = api.post(
        "/api/v1/auth/token/", {"username": organiser.username, "password": "secret-pass-123"}
    )
    assert answer.status_code == 200 and list(answer.json()) == ["token"]
    assert len(answer.json()["token"]) == 40
    client.force_login(organiser)
    assert "API login" in client.get("/accounts/tokens/").text


@pytest.mark.django_db
def test_drf_tokens_are_carried_over_and_their_table_dropped(api, organiser):
    """Migration 0002 on a database of the previous release: DRF's table of keys in
    clear becomes API tokens that keep working."""
    migration = importlib.import_module("quotient.accounts.migrations.0002_drf_tokens")
    old_key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY,"
            " created timestamp with time zone NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)",
            [old_key, timezone.now() - dt.timedelta(days=400), organiser.pk],
        )
    with connection.schema_editor() as editor:
        migration.copy_tokens(apps, editor)

    assert "authtoken_token" not in connection.introspection.table_names()
    token = ApiToken.objects.get(user=organiser)
    assert (token.name, token.prefix, token.digest) == ("API login", "012345", key_digest(old_key))
    assert token.expires_at > timezone.now() + dt.timedelta(days=364)
    assert write_with(api, old_key).status_code == 201
