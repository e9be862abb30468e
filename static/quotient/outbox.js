// The forms kept on this device until they are sent: one IndexedDB store shared by
// the pages (offline.js) and the service worker (sw.js). An entry is
//   {id, key, url, title, fields: [[name, value]...], savedAt, state, answer, page}
// where `key` is the form's Idempotency-Key (the server records a key once), `state`
// is waiting | sending | stored | duplicate | refused | login, `answer` what the
// server said ({url, message, warnings}) and `page` the server's page of a refused
// form (shown again by the worker when the form is reopened, everything typed).
"use strict";

(() => {
  const DB = "quotient-outbox";
  const STORE = "entries";
  // the entry forms a device keeps: a path that matches is cached when visited and
  // its submission is queued when the network is away
  const ENTRY_PATHS = [
    /^\/matches\/enter\/divisor\/sheet\/$/,
    /^\/matches\/enter\/[\w-]+\/$/,
    /^\/matches\/submit\/$/,
    /^\/tournaments\/[\w-]+\/rounds\/\d+\/tables\/\d+\/result\/$/,
  ];
  const isEntryPath = (path) => path !== "/matches/enter/players/" && ENTRY_PATHS.some((re) => re.test(path));

  let opened = null;
  const open = () => {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open(DB, 1);
        request.onupgradeneeded = () => {
          const store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
          store.createIndex("key", "key");
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    return opened;
  };
  const run = (mode, work) =>
    open().then(
      (db) =>
        new Promise((resolve, reject) => {
          const tx = db.transaction(STORE, mode);
          const result = work(tx.objectStore(STORE));
          tx.oncomplete = () => resolve(result && "result" in result ? result.result : result);
          tx.onerror = () => reject(tx.error);
        }),
    );

  const newKey = () =>
    self.crypto && crypto.randomUUID
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;

  self.QuotientOutbox = {
    isEntryPath,
    newKey,
    // keep a form: returns its id
    add: (entry) =>
      run("readwrite", (store) =>
        store.add({ state: "waiting", savedAt: new Date().toISOString(), answer: null, page: null, ...entry }),
      ),
    put: (entry) => run("readwrite", (store) => store.put(entry)),
    get: (id) => run("readonly", (store) => store.get(Number(id))),
    all: () => run("readonly", (store) => store.getAll()),
    remove: (id) => run("readwrite", (store) => store.delete(Number(id))),
  };
})();
