{% autoescape off %}// Quotient's service worker (served by quotient.offline at /sw.js, scope: the site).
// Static files: cache first. The entry forms and the outbox page: network first, the
// last copy kept when there is no network. A form posted while the network is away
// is kept in the device's outbox (outbox.js) and the browser is sent to the outbox page.
"use strict";
importScripts("{{ outbox_script }}");

const VERSION = "{{ version }}";
const STATIC = `quotient-static-${VERSION}`;
const PAGES = "quotient-pages";
const STATIC_FILES = [{% for url in static_files %}"{{ url }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const STATIC_PREFIX = "{{ static_prefix }}";
const OUTBOX_PAGE = "{{ outbox_page }}";
const PLAYERS = "/matches/enter/players/";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      await (await caches.open(STATIC)).addAll(STATIC_FILES);
      const pages = await caches.open(PAGES);
      await pages.add(new Request(OUTBOX_PAGE, { credentials: "same-origin" })).catch(() => null);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("quotient-static-") && name !== STATIC) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

const cacheFirst = async (request) => {
  const cached = await caches.match(request, { ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC)).put(request, response.clone());
  return response;
};

// the network's answer (kept for next time), else the last copy, else the outbox page
const networkFirst = async (request, key) => {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && response.type === "basic") {
      (await caches.open(PAGES)).put(key, response.clone());
    }
    return response;
  } catch (error) {
    const cached = (await caches.match(key)) || (request.mode === "navigate" && (await caches.match(OUTBOX_PAGE)));
    if (cached) return cached;
    throw error;
  }
};

// a refused form reopened from the outbox: the server's own page, everything typed
const reopened = async (request, id) => {
  const entry = await QuotientOutbox.get(id).catch(() => null);
  if (entry && entry.page) {
    const headers = { "Content-Type": "text/html; charset=utf-8" };
    if (entry.policy) headers["Content-Security-Policy"] = entry.policy; // the page's own
    return new Response(entry.page, { headers });
  }
  return networkFirst(request, new URL(request.url).pathname);
};

// a form posted with no network: kept, and the browser sent to the outbox page
const postOrKeep = async (request) => {
  const copy = request.clone();
  try {
    return await fetch(request);
  } catch (error) {
    const data = await copy.formData();
    const fields = Array.from(data.entries());
    const url = new URL(request.url).pathname;
    await QuotientOutbox.add({
      key: data.get("idempotency_key") || QuotientOutbox.newKey(),
      url,
      title: url,
      fields,
    });
    return Response.redirect(`${OUTBOX_PAGE}?queued=1`, 303);
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    if (request.mode === "navigate" && QuotientOutbox.isEntryPath(url.pathname)) {
      event.respondWith(postOrKeep(request));
    }
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    if (url.searchParams.has("outbox") && QuotientOutbox.isEntryPath(url.pathname)) {
      event.respondWith(reopened(request, url.searchParams.get("outbox")));
    } else if (QuotientOutbox.isEntryPath(url.pathname) || url.pathname === OUTBOX_PAGE) {
      event.respondWith(networkFirst(request, url.pathname));
    } else {
      event.respondWith(fetch(request).catch(async () => (await caches.match(OUTBOX_PAGE)) || Response.error()));
    }
  } else if (url.pathname === PLAYERS) {
    event.respondWith(networkFirst(request, request.url));
  }
});
{% endautoescape %}
