"""Entry that works offline: the site as an installable web app (its manifest), its
service worker, and the page of the forms waiting on this device to be sent.

The worker (``templates/offline/sw.js``, served from the site's root so that its scope
is the whole site) keeps the static files (cache first) and the entry forms once
visited (network first, the last copy when there is no network). A form submitted
without a network is kept in the device's IndexedDB with its own ``Idempotency-Key``
(``static/quotient/outbox.js``) and sent when the network returns
(``static/quotient/offline.js``); the server records it once however often it is sent
(``federation.idempotency.once``). ``docs/world.md`` tells the whole story.
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _

#: the worker's own files and those the forms need, kept at install
PRECACHED = (
    "quotient/site.css",
    "quotient/site.js",
    "quotient/entry.js",
    "quotient/offline.js",
    "quotient/outbox.js",
    "quotient/icons/icon-192.png",
)


def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, its version the hash of its own text (a change
    of the list or the code installs a new worker and drops the old static files)."""
    context = {
        "static_files": [static(path) for path in PRECACHED],
        "static_prefix": static(""),
        "outbox_script": static("quotient/outbox.js"),
        "outbox_page": reverse("offline-outbox"),
    }
    body = render_to_string("offline/sw.js", {**context, "version": ""})
    version = hashlib.sha256(body.encode()).hexdigest()[:12]
    body = render_to_string("offline/sw.js", {**context, "version": version})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def manifest(request: HttpRequest) -> JsonResponse:
    """``/manifest.webmanifest``: what a phone needs to install the site as an app."""
    png = "image/png"
    icons = [
        {"src": static("quotient/icons/icon-192.png"), "sizes": "192x192", "type": png},
        {"src": static("quotient/icons/icon-512.png"), "sizes": "512x512", "type": png},
        {
            "src": static("quotient/icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": png,
            "purpose": "maskable",
        },
        {"src": static("quotient/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    body = {
        "name": "Quotient",
        "short_name": "Quotient",
        "description": _("Match results, rankings and tournaments of the domino federation."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("match-submit"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#23395b",
        "icons": icons,
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "max-age=3600"
    return response


def outbox(request: HttpRequest) -> HttpResponse:
    """The forms kept on this device, waiting to be sent or answered (the page reads
    the device's IndexedDB: the server knows nothing of them until they are sent)."""
    return HttpResponse(render_to_string("offline/outbox.html", request=request))
