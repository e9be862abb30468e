// The organisers' entry forms: seat pickers with search, the divisor score sheet's
// live quotients and totals, new sheet rows as the last ones fill, and the small
// behaviours of the summary forms. The server checks everything again: this script
// only helps typing (the forms work without it, a little less comfortably).
"use strict";

(() => {
  const form = document.querySelector("form[data-entry]");
  if (!form) return;
  const text = (name, fallback) => form.dataset[name] || fallback;
  const seatInputs = () => Array.from(form.querySelectorAll("input[data-seat]"));
  // Write only what changed: a page rewritten under the finger jumps while a button
  // is being tapped (Chrome re-anchors its scroll), and the tap is lost.
  const setText = (element, value) => {
    if (element && element.textContent !== value) element.textContent = value;
  };
  const seatLabel = (n, handle) => handle || text("textSeat", "Seat %(number)s").replace("%(number)s", n + 1);

  // -- seats ----------------------------------------------------------------------
  const datalist = document.getElementById("club-players");
  const names = new Map();
  const remember = () => {
    if (!datalist) return;
    for (const option of datalist.options) names.set(option.value.toLowerCase(), option.textContent);
  };
  remember();

  const refreshSeats = () => {
    const handles = seatInputs().map((input) => input.value.trim());
    for (const select of form.querySelectorAll("select[data-seat-select]")) {
      for (const option of select.options) {
        if (option.value === "") continue;
        const n = Number(option.value);
        setText(option, seatLabel(n, handles[n]));
        const hidden = !handles[n] && !option.selected;
        if (option.hidden !== hidden) option.hidden = hidden;
      }
    }
    for (const label of form.querySelectorAll("[data-seat-label]")) {
      const n = Number(label.dataset.seatLabel);
      setText(label, seatLabel(n, handles[n]));
    }
    for (const block of form.querySelectorAll("[data-pip]")) {
      const hidden = !handles[Number(block.dataset.pip)];
      if (block.hidden !== hidden) block.hidden = hidden;
    }
    for (const shown of form.querySelectorAll("[data-seat-name]")) {
      const handle = handles[Number(shown.dataset.seatName)] || "";
      setText(shown, names.get(handle.toLowerCase()) || "");
    }
    compute();
  };

  const fillList = (players, replace) => {
    if (!datalist) return;
    if (replace) datalist.replaceChildren();
    const known = new Set(Array.from(datalist.options, (o) => o.value.toLowerCase()));
    for (const player of players) {
      if (known.has(player.handle.toLowerCase())) continue;
      const option = document.createElement("option");
      option.value = player.handle;
      option.textContent = player.name;
      datalist.append(option);
    }
    remember();
  };

  const club = form.querySelector("select[name=club]");
  const search = (query, replace) => {
    const url = new URL(form.dataset.playersUrl, window.location.href);
    url.searchParams.set("club", club ? club.value : "");
    if (query) url.searchParams.set("q", query);
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : { players: [] }))
      .then((body) => { fillList(body.players || [], replace); refreshSeats(); })
      .catch(() => {});
  };
  if (club) club.addEventListener("change", () => search("", true));
  let pending = null;
  for (const input of seatInputs()) {
    input.addEventListener("input", () => {
      refreshSeats();
      clearTimeout(pending);
      const query = input.value.trim();
      if (query.length >= 2) pending = setTimeout(() => search(query, false), 250);
    });
  }

  // -- the divisor score sheet -----------------------------------------------------
  const setSelect = form.querySelector("select[data-set]");
  const divisorInput = form.querySelector("input[data-divisor-input]");
  const divisor = () => {
    const typed = divisorInput ? parseInt(divisorInput.value, 10) : NaN;
    if (typed > 0) return typed;
    const option = setSelect ? setSelect.selectedOptions[0] : null;
    return option ? Number(option.dataset.divisor) : 0;
  };
  if (divisorInput && setSelect) {
    const placeholder = () => { divisorInput.placeholder = String(divisor()); };
    setSelect.addEventListener("change", () => { placeholder(); compute(); });
    divisorInput.addEventListener("input", compute);
    placeholder();
  }

  const rowParts = (row) => ({
    player: row.querySelector(".row-player"),
    kind: row.querySelector(".row-kind"),
    sum: row.querySelector(".row-sum"),
    quotient: row.querySelector(".row-quotient"),
    total: row.querySelector(".row-total"),
  });
  const number = (input) => {
    if (!input || input.value.trim() === "" || !/^\d+$/.test(input.value.trim())) return null;
    return Number(input.value.trim());
  };
  const typedRow = (parts) => parts.kind.value !== "sum" || number(parts.sum) !== null;

  // A row's player follows the turn order until someone picks it by hand; a
  // penalty draw is out of turn and does not move it on.
  const autoPlayers = (rows, seats) => {
    let previous = null;
    for (const row of rows) {
      const parts = rowParts(row);
      if (row.dataset.auto !== "0" && previous !== null && seats > 0) {
        parts.player.value = String((previous + 1) % seats);
      }
      const counted = typedRow(parts) || row.dataset.auto === "0";
      if (parts.player.value !== "" && parts.kind.value !== "penalty" && counted) {
        previous = Number(parts.player.value);
      }
    }
  };

  // A totals table, rebuilt only when its figures changed (a rebuild under the
  // finger would move the page while a button is being tapped).
  const table = (element, head, lines) => {
    if (!element) return;
    const key = JSON.stringify([head, lines]);
    if (element.dataset.shown === key) return;
    element.dataset.shown = key;
    element.replaceChildren();
    const row = (tag, cells) => {
      const tr = document.createElement("tr");
      cells.forEach((value, i) => {
        const cell = document.createElement(tag);
        if (i) cell.className = "num";
        cell.textContent = String(value);
        tr.append(cell);
      });
      return tr;
    };
    const thead = document.createElement("thead");
    thead.append(row("th", head));
    const tbody = document.createElement("tbody");
    for (const line of lines) tbody.append(row("td", line));
    element.append(thead, tbody);
  };

  const heads = () => [form.dataset.textPlayer || "", form.dataset.textPoints || "", form.dataset.textPips || "", form.dataset.textScore || ""];

  function compute() {
    const seats = seatInputs().map((input) => input.value.trim());
    const count = seats.filter(Boolean).length;
    if (form.dataset.entry === "sheet") computeSheet(seats, count);
    if (form.dataset.game === "divisor") computeSummary();
    if (form.dataset.game === "dominyam") countTiles(seats);
  }

  function computeSheet(seats, count) {
    const d = divisor();
    const match = seats.map(() => ({ points: 0, pips: 0 }));
    for (const deal of form.querySelectorAll("[data-deal]")) {
      const rows = Array.from(deal.querySelectorAll("[data-row]"));
      growRows(deal, rows);
      autoPlayers(rows, count);
      const gained = seats.map(() => 0);
      for (const row of rows) {
        const parts = rowParts(row);
        const kind = parts.kind.value;
        if (parts.sum.disabled !== (kind !== "sum")) parts.sum.disabled = kind !== "sum";
        const seat = parts.player.value === "" ? null : Number(parts.player.value);
        let quotient = "";
        let total = "";
        if (kind !== "sum") {
          quotient = text(kind === "draw" ? "textDraw" : kind === "pass" ? "textPass" : "textPenalty", kind);
        } else {
          const sum = number(parts.sum);
          if (sum !== null) {
            const scored = d > 0 && sum > 0 && sum % d === 0 ? sum / d : 0;
            quotient = scored ? `${sum} ÷ ${d} = ${scored}` : text("textNoScore", "0");
            if (seat !== null && seat < seats.length) {
              gained[seat] += scored;
              match[seat].points += scored;
            }
          }
        }
        if (seat !== null && seat < seats.length && typedRow(parts)) total = String(match[seat].points);
        setText(parts.quotient, quotient);
        setText(parts.total, total);
      }
      const lines = [];
      seats.forEach((handle, n) => {
        if (!handle) return;
        const pips = number(deal.querySelector(`input[name="${deal.id}-pips-${n}"]`)) || 0;
        match[n].pips += pips;
        lines.push([handle, gained[n], pips, gained[n] - pips]);
      });
      table(deal.querySelector("[data-totals]"), heads(), lines);
    }
    const lines = [];
    seats.forEach((handle, n) => { if (handle) lines.push([handle, match[n].points, match[n].pips, match[n].points - match[n].pips]); });
    table(form.querySelector("[data-match-totals]"), heads(), lines);
  }

  // Two blank rows always wait at the end of a deal: a new one as the last fills.
  function growRows(deal, rows) {
    const list = deal.querySelector("[data-rows]");
    let blank = 0;
    for (let i = rows.length - 1; i >= 0 && !typedRow(rowParts(rows[i])); i--) blank++;
    for (; blank < 2 && rows.length; blank++) {
      const last = list.lastElementChild;
      const copy = last.cloneNode(true);
      const index = Math.max(...Array.from(list.children, (r) => Number(r.id.split("-r")[1]))) + 1;
      renumber(copy, deal.id, index);
      list.append(copy);
      rows.push(copy);
    }
  }

  function renumber(row, deal, index) {
    const old = new RegExp(`${deal}-r\\d+`, "g");
    const fresh = `${deal}-r${index}`;
    row.id = fresh;
    row.classList.remove("has-error");
    row.dataset.auto = "";
    for (const el of row.querySelectorAll("[id],[name],[for]")) {
      for (const attr of ["id", "name", "for"]) {
        if (el.hasAttribute(attr)) el.setAttribute(attr, el.getAttribute(attr).replace(old, fresh));
      }
    }
    for (const error of row.querySelectorAll(".field-error")) error.remove();
    const parts = rowParts(row);
    parts.sum.value = "";
    parts.kind.value = "sum";
    row.querySelector(".row-number").textContent = String(index + 1);
    for (const label of row.querySelectorAll("label")) label.textContent = label.textContent.replace(/\d+/, String(index + 1));
  }

  // A hand-picked player stops following the turn order.
  form.addEventListener("change", (event) => {
    const row = event.target.closest("[data-row]");
    if (row && event.target.classList.contains("row-player")) row.dataset.auto = "0";
    compute();
  });
  form.addEventListener("input", (event) => {
    if (event.target.matches("input[type=number]")) compute();
  });
  for (const row of form.querySelectorAll("[data-row]")) {
    if (typedRow(rowParts(row))) row.dataset.auto = "0";
  }

  // "More rows" without a round trip when the script runs.
  const bindAddRow = (button) =>
    button.addEventListener("click", (event) => {
      event.preventDefault();
      const deal = button.closest("[data-deal]");
      const rows = Array.from(deal.querySelectorAll("[data-row]"));
      const list = deal.querySelector("[data-rows]");
      for (let k = 0; k < 4; k++) {
        const copy = list.lastElementChild.cloneNode(true);
        const index = Math.max(...Array.from(list.children, (r) => Number(r.id.split("-r")[1]))) + 1;
        renumber(copy, deal.id, index);
        list.append(copy);
        rows.push(copy);
      }
      compute();
      rows[rows.length - 4].querySelector(".row-sum").focus();
    });
  form.querySelectorAll("[data-add-row]").forEach(bindAddRow);

  // "Add a deal" without a round trip (nor a network: entry works offline): a copy
  // of the last deal, renamed and emptied.
  const dealsBox = form.querySelector("[data-deals]");
  const addDeal = form.querySelector("[data-add-deal]");
  if (dealsBox && addDeal) {
    addDeal.addEventListener("click", (event) => {
      const deals = dealsBox.querySelectorAll("[data-deal]");
      if (!deals.length) return; // the server makes the first
      event.preventDefault();
      const last = deals[deals.length - 1];
      const index = Math.max(...Array.from(deals, (d) => Number(d.dataset.deal))) + 1;
      const copy = last.cloneNode(true);
      const old = new RegExp(`^(id_)?${last.id}(?=-|$)`);
      const fresh = (value) => value.replace(old, (found, prefix) => `${prefix || ""}d${index}`);
      copy.dataset.deal = String(index);
      for (const el of [copy, ...copy.querySelectorAll("[id],[name],[for],[data-add-row]")]) {
        for (const attr of ["id", "name", "for"]) {
          if (el.hasAttribute(attr)) el.setAttribute(attr, fresh(el.getAttribute(attr)));
        }
        if (el.matches("[data-add-row]")) el.value = `d${index}`;
      }
      for (const error of copy.querySelectorAll(".field-error")) error.remove();
      for (const marked of [copy, ...copy.querySelectorAll(".has-error")]) marked.classList.remove("has-error");
      for (const input of copy.querySelectorAll("input")) {
        if (input.type === "checkbox" || input.type === "radio") input.checked = false;
        else if (input.type !== "hidden") input.value = "";
      }
      for (const select of copy.querySelectorAll("select")) select.value = select.classList.contains("row-kind") ? "sum" : "";
      for (const row of copy.querySelectorAll("[data-row]")) row.dataset.auto = "";
      for (const output of copy.querySelectorAll("output")) output.textContent = "";
      const title = copy.querySelector("h2");
      if (title) title.textContent = title.textContent.replace(/\d+/, String(index + 1));
      copy.querySelectorAll("[data-add-row]").forEach(bindAddRow);
      dealsBox.append(copy);
      compute();
      const first = copy.querySelector("select, input:not([type=hidden])");
      if (first) first.focus();
    });
  }

  // -- summary forms ---------------------------------------------------------------
  function computeSummary() {
    for (const line of form.querySelectorAll(".summary-line")) {
      const points = number(line.querySelector(".points-input"));
      const pips = number(line.querySelector(".pips-input"));
      const out = line.querySelector(".line-score");
      setText(out, points === null || pips === null ? "" : String(points - pips));
    }
  }

  function countTiles(seats) {
    const counts = seats.map(() => 0);
    for (const choice of form.querySelectorAll(".tile-choice")) {
      const select = choice.querySelector("select");
      if (choice.classList.contains("taken") !== (select.value !== "")) choice.classList.toggle("taken");
      if (select.value !== "" && Number(select.value) < counts.length) counts[Number(select.value)]++;
    }
    const out = form.querySelector("[data-tile-counts]");
    if (out) {
      const shown = seats.map((handle, n) => (handle ? `${handle}: ${counts[n]}${counts[n] % 2 ? " ⚠" : ""}` : "")).filter(Boolean).join(" · ");
      setText(out, shown);
    }
  }

  const outcomes = form.querySelectorAll("input[data-outcome]");
  const showOutcome = () => {
    const chosen = form.querySelector("input[data-outcome]:checked");
    for (const part of form.querySelectorAll("[data-outcome-part]")) {
      part.hidden = chosen ? part.dataset.outcomePart !== chosen.value : false;
    }
  };
  for (const radio of outcomes) radio.addEventListener("change", showOutcome);
  if (outcomes.length) showOutcome();

  // -- the error ------------------------------------------------------------------
  refreshSeats();
  const alert = document.getElementById("entry-error");
  const place = document.querySelector(".has-error");
  if (place) place.scrollIntoView({ block: "center" });
  else if (alert) alert.focus();
})();
