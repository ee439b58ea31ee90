"use strict";
// The standings page of a tournament: rounds, results and standings, read again whenever the event changes
// (its WebSocket). The standings count a round once it is played: a bye of the round in play counts when
// the round's last result is in, as the title says ("after round N"), with the results so far counted too.
(function () {
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const { el, score } = TL;

  // A column head: its short form (a C.07 code, "Pts"), its meaning on hover and for screen readers.
  function head(text, title, attrs) {
    const th = el("th", attrs || {});
    th.append(el("abbr", { title }, text));
    return th;
  }

  function renderStandings(t) {
    const table = document.getElementById("standings");
    const codes = t.regulations.tiebreaks;
    const row = el("tr");
    row.append(head(T("Rk"), T("Rank")), head(T("SNo"), T("Start number")), el("th", { class: "name" }, T("Name")),
      head(T("Rtg"), T("Rating")), head(T("Pts"), T("Points")));
    codes.forEach((c, i) => row.append(head(c, TL.tiebreak(c), { class: i === 0 ? "tb first" : "tb", "data-code": c })));
    table.tHead.replaceChildren(row);
    const rows = t.standings.map((s) => {
      const tr = el("tr", { "data-sn": s.start_number });
      tr.append(el("td", { class: "rank" }, s.rank), el("td", {}, s.start_number), el("td", { class: "name" }, s.name),
        el("td", {}, s.rating || ""), el("td", { class: "pts" }, score(s.points)));
      codes.forEach((c, i) => tr.append(el("td", { class: i === 0 ? "tb first" : "tb", "data-code": c }, score(s.tiebreaks[c]))));
      return tr;
    });
    table.tBodies[0].replaceChildren(...rows);
    hint(table);
    const legend = document.getElementById("tb-legend");
    legend.replaceChildren(el("dt", {}, T("Tie-breaks (C.07), in order:")));
    for (const c of codes) {
      const dd = el("dd", { "data-code": c });
      dd.append(el("b", {}, c), document.createTextNode(` ${TL.tiebreak(c)}`));
      legend.append(dd);
    }
    const done = t.rounds.filter((r) => r.complete).length;
    const playing = t.rounds.find((r) => !r.complete);
    const some = playing && playing.boards.some((b) => b.result);
    document.getElementById("standings-title").textContent = t.finished ? T("Final standings")
      : some ? T("Standings after round {done} of {total}, with the results of round {n} so far", { done, total: t.total_rounds, n: playing.number })
        : T("Standings after round {done} of {total}", { done, total: t.total_rounds });
  }

  // A table wider than the screen says so: "scroll sideways" under it (the tie-breaks are to its right).
  function hint(table) {
    const box = table.parentElement;
    let note = box.nextElementSibling;
    if (!note || !note.classList.contains("scroll-hint")) {
      note = el("p", { class: "scroll-hint" }, T("Scroll the table sideways for every column →"));
      box.after(note);
    }
    note.hidden = box.scrollWidth <= box.clientWidth + 1;
  }

  function renderCrosstable(t) {
    const table = document.getElementById("crosstable");
    const row = el("tr");
    row.append(head(T("SNo"), T("Start number")), el("th", { class: "name" }, T("Name")), head(T("Rtg"), T("Rating")));
    t.rounds.forEach((r) => row.append(head(T("R{n}", { n: r.number }), T("Round {n}", { n: r.number }))));
    row.append(head(T("Pts"), T("Points")));
    table.tHead.replaceChildren(row);
    table.tBodies[0].replaceChildren(...t.crosstable.map((x) => {
      const tr = el("tr");
      tr.append(el("td", {}, x.start_number), el("td", { class: "name" }, x.name), el("td", {}, x.rating));
      x.rounds.forEach((c) => tr.append(el("td", { class: "cell" }, c)));
      tr.append(el("td", { class: "pts" }, score(x.points)));
      return tr;
    }));
    hint(table);
  }

  // What an unfinished round is doing: held until the arbiter starts it (its games say so), or in play.
  const roundState = {};
  async function lookHeld(r) {
    const b = r.boards.find((x) => !x.result && x.game_id);
    if (!b) return;
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(b.game_id)}`);
      if (!res.ok) return;
      const g = await res.json();
      roundState[r.number] = g.status === "ongoing" && g.held ? "held" : g.status === "ongoing" && !g.started ? "scheduled" : "play";
    } catch (e) { /* the server is restarting: the next change reads it again */ }
  }
  function roundTitle(r) {
    if (r.complete) return T("Round {n}", { n: r.number });
    const state = roundState[r.number];
    if (state === "held") return T("Round {n} (paired: waits for the arbiter to start it)", { n: r.number });
    if (state === "scheduled") return T("Round {n} (starts soon)", { n: r.number });
    return T("Round {n} (in play)", { n: r.number });
  }

  function renderRounds(t) {
    const box = document.getElementById("rounds");
    const parts = t.rounds.slice().reverse().map((r) => {
      const div = el("div", { class: "round", "data-round": r.number, "data-state": r.complete ? "complete" : roundState[r.number] || "play" });
      div.append(el("h3", {}, roundTitle(r)));
      // The round for its spectators: its boards live, and its PGN feed (what lichess Broadcast and other viewers poll).
      const links = el("p", { class: "round-links" });
      links.append(el("a", { href: `/tournament/${encodeURIComponent(id)}/round/${r.number}`, class: "live-link" }, T("Live boards")), " · ",
        el("a", { href: `/api/tournaments/${encodeURIComponent(id)}/rounds/${r.number}/pgn`, class: "pgn-link",
          title: T("The round's games in PGN, always current (for lichess Broadcast and other viewers)") }, T("PGN of the round")));
      div.append(links);
      const table = el("table", { class: "pairings" });
      const row = el("tr");
      row.append(head(T("Bd"), T("Board"), { scope: "col" }), head(T("No."), T("Start number"), { class: "sn", scope: "col" }),
        el("th", { class: "name", scope: "col" }, T("White")), el("th", { class: "res", scope: "col" }, T("Result")),
        el("th", { class: "name", scope: "col" }, T("Black")), head(T("No."), T("Start number"), { class: "sn", scope: "col" }),
        el("th", { scope: "col" }));
      row.lastChild.append(el("span", { class: "sr-only" }, T("Game")));
      table.append(el("thead", {}), el("tbody", {}));
      table.tHead.append(row);
      for (const b of r.boards) {
        const tr = el("tr");
        const res = el("td", { class: b.result ? "res" : "res pending" }, b.result ? TL.RESULTS[b.result] || b.result : "…");
        const link = el("td", {});
        if (b.game) link.append(el("a", { href: b.game }, T("watch")));
        tr.append(el("td", {}, b.table), el("td", { class: "sn" }, b.white), el("td", { class: "name" }, b.white_name), res,
          el("td", { class: "name" }, b.black_name), el("td", { class: "sn" }, b.black), link);
        table.tBodies[0].append(tr);
      }
      div.append(table);
      for (const y of r.byes) div.append(el("p", { class: "bye" }, `${y.name}: ${TL.bye(y.kind)}`));
      return div;
    });
    if (!parts.length) parts.push(el("p", { class: "bye" }, T("Round 1 is not paired yet.")));
    box.replaceChildren(...parts);
  }

  async function refresh() {
    try {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}`);
      const t = await r.json();
      if (!r.ok) { document.getElementById("t-name").textContent = t.error || T("No such tournament"); return; }
      document.title = `chesslaws · ${t.name}`;
      document.getElementById("t-name").textContent = t.name;
      const trf = document.getElementById("t-trf");
      trf.href = `/api/tournaments/${encodeURIComponent(t.id)}/trf`;
      document.getElementById("t-pgn").href = `/api/tournaments/${encodeURIComponent(t.id)}/pgn`;
      const g = t.regulations;
      document.getElementById("t-info").textContent = `${TL.system(g.system)} · ${T("{n} players", { n: t.players.length })}`;
      document.getElementById("t-regs").textContent =
        T("Laws of {e} · time control {tc} · scoring {s}", { e: g.edition, tc: TC.show(g.time_control), s: g.scoring }) +
        (g.quickplay ? ` · ${T("quickplay Guidelines")}` : "") + (regulationsText(g) ? ` · ${regulationsText(g)}` : "");
      const open = t.rounds.find((x) => !x.complete);
      if (open) await lookHeld(open);
      renderStandings(t);
      renderCrosstable(t);
      renderRounds(t);
      document.body.dataset.ready = "1";
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
