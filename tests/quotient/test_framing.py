"""Only ``/embed/`` pages may be framed by other sites; every other page says DENY
(``X-Frame-Options``) and ``frame-ancestors 'none'`` (CSP)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/", "/rankings/", "/tournaments/", "/players/", "/webhooks/", "/accounts/login/"]
)
def test_other_pages_may_not_be_framed(client, games, path):
    response = client.get(path)
    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
