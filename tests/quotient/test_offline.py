"""The installable web app: its manifest, its service worker served from the site's
root, and the outbox page (what the browser test drives, here as the server serves it)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders


@pytest.mark.django_db
def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    body = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert 'importScripts("/static/quotient/outbox.js")' in body
    assert '"/static/quotient/entry.js"' in body and 'OUTBOX_PAGE = "/offline/"' in body
    version = re.search(r'const VERSION = "([0-9a-f]{12})";', body)
    assert version and client.get("/sw.js").content.decode() == body  # stable
    assert "http://" not in body and "https://" not in body  # nothing from another host


@pytest.mark.django_db
def test_the_manifest_names_the_app_in_the_visitors_language(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Quotient" and manifest["lang"] == "fr"
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert manifest["description"].startswith("Résultats, classements")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/quotient/icons/")
        assert finders.find(icon["src"].removeprefix("/static/"))


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_the_offline_scripts(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-worker="/sw.js"' in page
    assert "quotient/offline.js" in page and "quotient/outbox.js" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Waiting to send"), ("fr", "En attente d’envoi"), ("de", "Warten auf das Senden")],
)
def test_the_outbox_page_is_translated(client, language, title):
    response = client.get("/offline/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert f"<h1>{title}</h1>" in page
    assert "data-outbox-list" in page and "<script>" not in page
