"""Absolute links to the site, built from the ``SITE_URL`` setting.

Links that leave the site's pages (webhook payloads, calendar feeds, the tournament
archive, mails sent by a worker) are built from the documented setting, never from a
request: a Celery worker has none, and a request's Host is whatever its sender wrote.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse


def site_url() -> str:
    """``SITE_URL`` without its trailing slash (``https://quotient.example.org``)."""
    return str(settings.SITE_URL).rstrip("/")


def absolute(path: str) -> str:
    """The absolute URL of a path of the site (``/tournaments/x/`` -> ``https://...``)."""
    return site_url() + (path if path.startswith("/") else "/" + path)


def absolute_url(name: str, *args: object) -> str:
    """The absolute URL of the URL named ``name`` with ``args``."""
    return absolute(reverse(name, args=args))


def site_host() -> str:
    """The site's host name (the domain part of calendar UIDs)."""
    return urlsplit(site_url()).hostname or "localhost"
