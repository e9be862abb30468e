// Entry that works offline, on every page: registers the site's service worker,
// keeps each entry form visited for use without a network, queues an entry form
// submitted without a network (outbox.js) and sends the queue when the network
// returns (the `online` event, and every page load). Each form carries an
// Idempotency-Key: the server records it once, however often it is sent.
"use strict";

(() => {
  const Outbox = self.QuotientOutbox;
  const note = document.querySelector("[data-outbox-note]");
  if (!Outbox || !note || !("indexedDB" in self)) return;
  const text = (name) => note.dataset[name] || "";
  const outboxPage = note.dataset.outboxUrl;
  const path = location.pathname;
  const PAGES = "quotient-pages";

  // -- the worker, and this form kept for use without a network ---------------------
  const ready = (async () => {
    if (!("serviceWorker" in navigator) || !note.dataset.worker) return;
    try {
      await navigator.serviceWorker.register(note.dataset.worker, { scope: "/" });
      await navigator.serviceWorker.ready;
      if (navigator.onLine && (Outbox.isEntryPath(path) || path === outboxPage) && self.caches) {
        const pages = await caches.open(PAGES);
        for (const url of new Set([path, outboxPage])) {
          const response = await fetch(url, { credentials: "same-origin" });
          if (response.ok && !response.redirected) await pages.put(url, response);
        }
      }
    } catch (error) {
      // no worker (a private window, an old browser): the forms work online as before
    }
  })();
  ready.then(() => {
    document.documentElement.dataset.offlineReady = "1";
  });

  // leaving the site: the forms kept for this person are dropped (not their outbox)
  for (const logout of document.querySelectorAll("form[action$='/logout/']")) {
    logout.addEventListener("submit", () => self.caches && caches.delete(PAGES));
  }

  const done = sessionStorage.getItem("outbox-done");
  if (done) {
    Outbox.remove(done).then(() => {
      sessionStorage.removeItem("outbox-done");
      document.dispatchEvent(new CustomEvent("outbox:changed"));
    });
  }

  // -- the entry form: its key, and kept when submitted without a network ------------
  const form = Outbox.isEntryPath(path)
    ? document.querySelector("main form[data-entry], main form[method=post]")
    : null;
  const reopenedId = new URLSearchParams(location.search).get("outbox");
  if (form) {
    const keyField = document.createElement("input");
    keyField.type = "hidden";
    keyField.name = "idempotency_key";
    keyField.value = Outbox.newKey(); // one per page: a form tapped twice is recorded once
    form.append(keyField);
    if (reopenedId) restore(form, reopenedId);
    form.addEventListener("submit", async (event) => {
      const submitter = event.submitter;
      if (submitter && submitter.name === "more") {
        // room for a seat (a row or a deal when the script cannot): the server makes it
        if (navigator.onLine) return;
        event.preventDefault();
        if (!submitter.nextElementSibling || !submitter.nextElementSibling.matches("[data-needs-network]")) {
          const said = document.createElement("p");
          said.className = "field-error";
          said.setAttribute("role", "alert");
          said.dataset.needsNetwork = "";
          said.textContent = text("textNeedsNetwork");
          submitter.after(said);
        }
        return;
      }
      if (navigator.onLine) {
        // sent again online: the refused copy is done with (dropped on the next page)
        if (reopenedId) sessionStorage.setItem("outbox-done", reopenedId);
        return;
      }
      event.preventDefault();
      if (reopenedId) await Outbox.remove(reopenedId); // this copy takes its place
      const fields = Array.from(new FormData(form, submitter).entries());
      await Outbox.add({ key: keyField.value, url: path, title: document.title.split(" · ")[0], fields });
      location.assign(`${outboxPage}?queued=1`);
    });
  }

  // a refused form reopened: what was typed, back in its fields (the worker usually
  // shows the server's page with them already; this covers a page from elsewhere)
  async function restore(target, id) {
    const entry = await Outbox.get(id).catch(() => null);
    if (!entry) return;
    const seen = new Map();
    for (const [name, value] of entry.fields) {
      if (typeof value !== "string" || name === "csrfmiddlewaretoken" || name === "idempotency_key") continue;
      const fields = target.querySelectorAll(`[name="${CSS.escape(name)}"]`);
      const n = seen.get(name) || 0;
      seen.set(name, n + 1);
      for (const field of fields) {
        if (field.type === "checkbox" || field.type === "radio") {
          if (field.value === value) field.checked = true;
        } else if (field === fields[Math.min(n, fields.length - 1)] && field.type !== "file") {
          field.value = value;
        }
      }
    }
  }

  // -- sending the queue -------------------------------------------------------------
  const parse = (html) => new DOMParser().parseFromString(html, "text/html");

  const sendOne = async (entry) => {
    const page = await fetch(entry.url, { credentials: "same-origin" });
    if (page.redirected && /\/accounts\/login\//.test(page.url)) {
      return { ...entry, state: "login", answer: { message: text("textLogin") } };
    }
    if (!page.ok) return null;
    const token = parse(await page.text()).querySelector("input[name=csrfmiddlewaretoken]");
    const withFiles = entry.fields.some(([, value]) => typeof value !== "string");
    const body = withFiles ? new FormData() : new URLSearchParams();
    for (const [name, value] of entry.fields) {
      body.append(name, name === "csrfmiddlewaretoken" && token ? token.value : value);
    }
    const response = await fetch(entry.url, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: {
        "Idempotency-Key": entry.key,
        Accept: "application/json",
        ...(token ? { "X-CSRFToken": token.value } : {}),
      },
    });
    if (response.status >= 500) return null; // the server is not well: later
    const type = response.headers.get("Content-Type") || "";
    if (response.ok && type.includes("json")) {
      const answer = await response.json();
      return { ...entry, state: answer.outcome, answer, page: null };
    }
    const html = await response.text();
    const alert = type.includes("html") ? parse(html).querySelector("main [role=alert], main .error") : null;
    // the refusal's own words: not the alert's "Nothing was stored.", link or code
    if (alert) for (const extra of alert.querySelectorAll("strong, a, code")) extra.remove();
    const message = alert ? alert.textContent.replace(/\s+/g, " ").trim() : `${response.status} ${response.statusText}`;
    const policy = response.headers.get("Content-Security-Policy");
    return { ...entry, state: "refused", answer: { message }, page: type.includes("html") ? html : null, policy };
  };

  const sendWaiting = async () => {
    if (!navigator.onLine) return;
    for (const entry of await Outbox.all()) {
      if (entry.state !== "waiting" && entry.state !== "login") continue;
      let answered = null;
      try {
        answered = await sendOne(entry);
      } catch (error) {
        return; // no network after all: the next `online` event or page
      }
      if (answered) {
        await Outbox.put(answered);
        document.dispatchEvent(new CustomEvent("outbox:changed"));
      }
    }
  };
  const send = () => (navigator.locks ? navigator.locks.request("quotient-outbox", sendWaiting) : sendWaiting());

  // -- the note on every page: what waits, what was answered -------------------------
  const showNote = async () => {
    const entries = await Outbox.all();
    const waiting = entries.filter((e) => e.state === "waiting" || e.state === "login").length;
    const answered = entries.length - waiting;
    const parts = [];
    if (waiting) parts.push(text("textWaiting").replace("%(count)s", waiting));
    if (answered) parts.push(text("textAnswered").replace("%(count)s", answered));
    note.hidden = parts.length === 0 || path === outboxPage;
    const link = note.querySelector("a");
    if (link) link.textContent = parts.join(" · ");
  };

  // -- the outbox page: the list of this device's forms ------------------------------
  const list = document.querySelector("[data-outbox-list]");
  const showList = async () => {
    if (!list) return;
    const entries = (await Outbox.all()).reverse();
    const empty = document.querySelector("[data-outbox-empty]");
    if (empty) empty.hidden = entries.length > 0;
    const says = (name) => list.dataset[name] || "";
    list.replaceChildren(
      ...entries.map((entry) => {
        const item = document.createElement("li");
        item.className = `outbox-entry outbox-${entry.state}`;
        item.dataset.state = entry.state;
        item.dataset.key = entry.key;
        const title = document.createElement("strong");
        title.textContent = entry.title || entry.url;
        const when = document.createElement("span");
        when.className = "helptext";
        const saved = new Date(entry.savedAt);
        when.textContent = says("textSaved").replace("%(when)s", saved.toLocaleString(document.documentElement.lang));
        const state = document.createElement("p");
        state.className = "outbox-state";
        const word = says(`textState${entry.state[0].toUpperCase()}${entry.state.slice(1)}`);
        const answer = entry.answer || {};
        const told = ["refused", "login"].includes(entry.state) ? [answer.message] : answer.warnings || [];
        state.textContent = [word, ...told.filter(Boolean)].join(" ");
        const actions = document.createElement("p");
        actions.className = "outbox-actions";
        const link = (href, label) => {
          const a = document.createElement("a");
          a.href = href;
          a.textContent = label;
          actions.append(a, " ");
        };
        if (entry.answer && entry.answer.url) link(entry.answer.url, says("textSee"));
        if (entry.state === "refused") link(`${entry.url}?outbox=${entry.id}`, says("textReopen"));
        if (entry.state === "login") link(`/accounts/login/?next=${encodeURIComponent(outboxPage)}`, says("textLogIn"));
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "secondary";
        remove.textContent = says("textRemove");
        remove.addEventListener("click", async () => {
          if (entry.state === "waiting" && !confirm(says("textConfirm"))) return;
          await Outbox.remove(entry.id);
          document.dispatchEvent(new CustomEvent("outbox:changed"));
        });
        actions.append(remove);
        item.append(title, " ", when, state, actions);
        return item;
      }),
    );
  };
  const queued = document.querySelector("[data-outbox-queued]");
  if (queued) queued.hidden = !new URLSearchParams(location.search).has("queued");
  const sendNow = document.querySelector("[data-outbox-send]");
  if (sendNow) sendNow.addEventListener("click", () => send().then(showNote));

  self.QuotientOffline = { send, ready, showNote, showList };
  document.addEventListener("outbox:changed", showNote);
  document.addEventListener("outbox:changed", showList);
  showList();
  window.addEventListener("online", () => send().then(showNote));
  showNote().then(send).then(showNote);
})();
