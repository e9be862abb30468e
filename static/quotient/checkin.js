// Manage page: the players who checked themselves in show up without a reload.
// Every 10 s it reads manage/check-ins.json and updates the "checked in" cells and
// the count. Without JavaScript the page is the same, refreshed by hand.
(() => {
  const section = document.getElementById("self-check-in");
  if (!section || !window.fetch) return;
  const url = section.dataset.checkIns;

  function mark(cell, done) {
    const form = cell.querySelector("form");
    if (!form) return;
    const token = form.querySelector("input[name=csrfmiddlewaretoken]");
    form.replaceChildren();
    if (token) form.append(token);
    const button = document.createElement("button");
    button.type = "submit";
    if (done) {
      form.append("✓ ");
      button.textContent = section.dataset.undo;
    } else {
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = "checked_in";
      field.value = "on";
      form.append(field);
      button.textContent = section.dataset.checkIn;
    }
    form.append(button);
    cell.dataset.checkedIn = done ? "1" : "0";
  }

  async function refresh() {
    try {
      const answer = await fetch(url, { headers: { Accept: "application/json" } });
      if (!answer.ok) return;
      const state = await answer.json();
      for (const reg of state.registrations) {
        const cell = document.querySelector(
          `tr[data-registration="${reg.id}"] td[data-checked-in]`,
        );
        if (cell && (cell.dataset.checkedIn === "1") !== reg.checked_in) {
          mark(cell, reg.checked_in);
        }
      }
      const done = section.querySelector("[data-done]");
      const total = section.querySelector("[data-total]");
      if (done) done.textContent = state.checked_in;
      if (total) total.textContent = state.registered;
    } catch (error) {
      // offline for a moment: the next tick tries again
    }
  }

  window.setInterval(refresh, 10000);
})();
