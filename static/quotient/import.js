// An import's page follows the job until it is over, then shows its report.
"use strict";

// The upload form refuses a file over the limit before sending it (the server and
// the proxy would refuse it too, after the wait).
(() => {
  for (const input of document.querySelectorAll("input[type=file][data-max-bytes]")) {
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      const tooLarge = file && file.size > Number(input.dataset.maxBytes);
      input.setCustomValidity(tooLarge ? input.dataset.tooLarge : "");
      if (tooLarge) input.reportValidity();
    });
  }
})();

(() => {
  const box = document.querySelector("[data-import][data-follow]");
  if (!box) return;
  const field = (name) => box.querySelector(`[data-field="${name}"]`);
  const labels = { queued: box.dataset.textQueued, running: box.dataset.textRunning, done: box.dataset.textDone, failed: box.dataset.textFailed };
  const show = (report) => {
    const bar = field("bar");
    bar.max = Math.max(report.total, 1);
    bar.value = report.done;
    bar.textContent = `${report.done} / ${report.total}`;
    for (const name of ["done", "total", "stored", "duplicates"]) field(name).textContent = String(report[name]);
    field("rejected").textContent = String(report.rejected.length);
    field("status_label").textContent = labels[report.status] || report.status;
  };
  const poll = () => {
    fetch(box.dataset.statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((report) => {
        show(report);
        if (report.status === "done" || report.status === "failed") {
          window.location.reload(); // the server shows the report of a finished import
        } else {
          setTimeout(poll, 700);
        }
      })
      .catch(() => setTimeout(poll, 3000));
  };
  poll();
})();
