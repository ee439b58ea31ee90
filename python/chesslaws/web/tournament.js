"use strict";
// The standings page of a tournament: rounds, results and standings, read again whenever the event changes
// (its WebSocket).
(function () {
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const RESULTS = { "1-0": "1 – 0", "0-1": "0 – 1", "1/2-1/2": "½ – ½", "0-0": "0 – 0", "+-": "+ – −", "-+": "− – +", "--": "− – −" };
  const BYES = { pab: "pairing-allocated bye", full: "full-point bye", half: "half-point bye", zero: "zero-point bye", absent: "absent", free: "free round" };

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function num(x) { return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100).replace(".5", "½").replace(/^0½$/, "½"); }

  function renderStandings(t) {
    const table = document.getElementById("standings");
    const codes = t.regulations.tiebreaks;
    const head = el("tr");
    head.append(el("th", {}, "Rk"), el("th", {}, "SNo"), el("th", { class: "name" }, "Name"), el("th", {}, "Rtg"), el("th", {}, "Pts"));
    codes.forEach((c, i) => head.append(el("th", { class: i === 0 ? "tb first" : "tb", title: c }, c)));
    table.tHead.replaceChildren(head);
    const rows = t.standings.map((s) => {
      const tr = el("tr", { "data-sn": s.start_number });
      tr.append(el("td", { class: "rank" }, s.rank), el("td", {}, s.start_number), el("td", { class: "name" }, s.name),
        el("td", {}, s.rating || ""), el("td", { class: "pts" }, num(s.points)));
      codes.forEach((c, i) => tr.append(el("td", { class: i === 0 ? "tb first" : "tb" }, num(s.tiebreaks[c]))));
      return tr;
    });
    table.tBodies[0].replaceChildren(...rows);
    hint(table);
    const done = t.rounds.filter((r) => r.complete).length;
    document.getElementById("standings-title").textContent =
      t.finished ? "Final standings" : `Standings after round ${done} of ${t.total_rounds}`;
  }

  // A table wider than the screen says so: "scroll sideways" under it (the tie-breaks are to its right).
  function hint(table) {
    const box = table.parentElement;
    let note = box.nextElementSibling;
    if (!note || !note.classList.contains("scroll-hint")) {
      note = el("p", { class: "scroll-hint" }, "Scroll the table sideways for every column →");
      box.after(note);
    }
    note.hidden = box.scrollWidth <= box.clientWidth + 1;
  }

  function renderCrosstable(t) {
    const table = document.getElementById("crosstable");
    const head = el("tr");
    head.append(el("th", {}, "SNo"), el("th", { class: "name" }, "Name"), el("th", {}, "Rtg"));
    t.rounds.forEach((r) => head.append(el("th", {}, `R${r.number}`)));
    head.append(el("th", {}, "Pts"));
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceChildren(...t.crosstable.map((row) => {
      const tr = el("tr");
      tr.append(el("td", {}, row.start_number), el("td", { class: "name" }, row.name), el("td", {}, row.rating));
      row.rounds.forEach((c) => tr.append(el("td", { class: "cell" }, c)));
      tr.append(el("td", { class: "pts" }, row.points.replace(".5", "½").replace(/^0½$/, "½")));
      return tr;
    }));
    hint(table);
  }

  function renderRounds(t) {
    const box = document.getElementById("rounds");
    const parts = t.rounds.slice().reverse().map((r) => {
      const div = el("div", { class: "round", "data-round": r.number });
      div.append(el("h3", {}, `Round ${r.number}${r.complete ? "" : " (in play)"}`));
      const table = el("table", { class: "pairings" });
      const head = el("tr");
      head.append(el("th", { scope: "col" }, "Bd"), el("th", { class: "sn", scope: "col" }, "No."), el("th", { class: "name", scope: "col" }, "White"),
        el("th", { class: "res", scope: "col" }, "Result"), el("th", { class: "name", scope: "col" }, "Black"), el("th", { class: "sn", scope: "col" }, "No."),
        el("th", { scope: "col" }));
      head.lastChild.append(el("span", { class: "sr-only" }, "Game"));
      table.append(el("thead", {}), el("tbody", {}));
      table.tHead.append(head);
      for (const b of r.boards) {
        const tr = el("tr");
        const res = el("td", { class: b.result ? "res" : "res pending" }, b.result ? RESULTS[b.result] : "…");
        const link = el("td", {});
        if (b.game) link.append(el("a", { href: b.game }, "watch"));
        tr.append(el("td", {}, b.table), el("td", { class: "sn" }, b.white), el("td", { class: "name" }, b.white_name), res,
          el("td", { class: "name" }, b.black_name), el("td", { class: "sn" }, b.black), link);
        table.tBodies[0].append(tr);
      }
      div.append(table);
      for (const y of r.byes) div.append(el("p", { class: "bye" }, `${y.name}: ${BYES[y.kind] || y.kind}`));
      return div;
    });
    if (!parts.length) parts.push(el("p", { class: "bye" }, "Round 1 is not paired yet."));
    box.replaceChildren(...parts);
  }

  async function refresh() {
    try {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}`);
      const t = await r.json();
      if (!r.ok) { document.getElementById("t-name").textContent = t.error || "No such tournament"; return; }
      document.title = `chesslaws · ${t.name}`;
      document.getElementById("t-name").textContent = t.name;
      document.getElementById("t-trf").href = `/api/tournaments/${encodeURIComponent(t.id)}/trf`;
      const g = t.regulations;
      document.getElementById("t-info").textContent = `${g.system.replace(/-/g, " ")} · ${t.players.length} players`;
      document.getElementById("t-regs").textContent =
        `Laws of ${g.edition} · time control ${TC.show(g.time_control)} · scoring ${g.scoring}` + (g.quickplay ? " · quickplay Guidelines" : "");
      renderStandings(t);
      renderCrosstable(t);
      renderRounds(t);
    } catch (e) { /* the server is restarting: try again at the next tick */ }
  }
  let busy = false, again = false;
  async function changed() {
    if (busy) { again = true; return; }
    busy = true;
    try { await refresh(); } finally { busy = false; }
    if (again) { again = false; changed(); }
  }
  TL.follow(id, changed);
  window.addEventListener("resize", () => { for (const t of document.querySelectorAll(".scroll table")) hint(t); });
})();
