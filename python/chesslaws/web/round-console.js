"use strict";
// The round's arbiter console: every board of a round as its game stands (moves, clocks, claims, stopped
// clocks, flags, absences, results), read again whenever the event changes (its WebSocket), with the link to
// each game's arbiter console, every player's seat link (copy, QR, the printable pairing sheet) and own page.
// The tournament arbiter's token comes in the URL fragment (#token=...) and is sent as a Bearer token.
(function () {
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[parts.length - 2] || "");
  const RESULTS = { "1-0": "1 – 0", "0-1": "0 – 1", "1/2-1/2": "½ – ½", "0-0": "0 – 0", "+-": "+ – −", "-+": "− – +", "--": "− – −" };
  const BYES = { pab: "pairing-allocated bye", full: "full-point bye", half: "half-point bye", zero: "zero-point bye", absent: "absent", free: "free round" };
  const $ = (x) => document.getElementById(x);
  let token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  let chosen = null; // the round the arbiter chose; null follows the latest round
  let data = null;
  let fetchedAt = 0;
  let busy = false;
  let holding = false; // the pointer is on a result form: the next refreshes wait, so no click is lost
  const ENTER = [["1-0", "1–0"], ["1/2-1/2", "½–½"], ["0-1", "0–1"], ["+-", "+ −"], ["-+", "− +"], ["--", "− −"]];

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clock(ms) {
    if (ms === null || ms === undefined) return "–";
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}` : `${m}:${String(sec).padStart(2, "0")}`;
  }
  function showError(text) {
    $("c-error").hidden = !text;
    $("c-error").textContent = text || "";
  }
  function badge(text, kind) { return el("span", { class: `badge ${kind || ""}` }, text); }
  function player(p) {
    const td = el("td", { class: "name" });
    td.append(el("span", { class: "sn" }, p.start_number), document.createTextNode(p.name));
    if (p.rating) td.append(el("span", { class: "rtg" }, p.rating));
    return td;
  }
  function withLabel(td, label) { td.setAttribute("data-label", label); return td; }

  function states(b) {
    const g = b.game, out = [];
    if (b.result) out.push(badge(b.termination ? `over: ${b.termination.replace(/_/g, " ")}` : "result entered", ""));
    if (!g) { if (!b.result) out.push(badge(b.game_id ? "game not reachable" : "no game", "warn")); return out; }
    if (!b.result && g.status === "finished") out.push(badge(`over: ${(g.termination || "").replace(/_/g, " ")}`, ""));
    if (g.status === "ongoing") {
      if (g.held) out.push(badge("waits for the round's start", "info"));
      else if (!g.started) out.push(badge("not started", "info"));
      else out.push(badge(`${g.turn} to move`, "live"));
    }
    for (const s of g.waiting_for || []) if (g.status === "ongoing") out.push(badge(`waiting for ${s}`, "info"));
    if (g.status === "ongoing" && !g.started) { // before t=0: who has opened the game, who has not
      for (const s of g.present_early || []) out.push(badge(`${b[s].name} is here`, "live"));
      for (const s of g.absent || []) out.push(badge(`${b[s].name} has not opened the game`, "warn"));
    } else for (const s of g.absent || []) if (g.status === "ongoing") out.push(badge(`${s} absent`, "info"));
    for (const p of g.pending || []) {
      const what = p.kind.replace(/_/g, " ");
      out.push(badge(`${what} by ${p.by}`, p.kind === "draw_offer" ? "info" : "warn"));
    }
    if (g.clocks_stopped) out.push(badge("clocks stopped", "warn"));
    for (const c of g.flags || []) out.push(badge(`${c}'s flag down`, "warn"));
    if (g.status === "adjourned") out.push(badge("adjourned", "warn"));
    if (g.status === "annulled") out.push(badge("annulled", "warn"));
    return out;
  }

  function clockCell(b) {
    const td = el("td", { class: "clocks" });
    const g = b.game;
    if (!g || !g.clocks.timed) { td.textContent = g ? "untimed" : ""; return td; }
    for (const side of ["white", "black"]) {
      const running = g.clocks.running === side && g.started;
      const cls = ["ck", side, running ? "running" : "", (g.flags || []).includes(side) ? "flag" : "", g.clocks_stopped ? "stopped" : ""].join(" ");
      const span = el("span", { class: cls, "data-ms": g.clocks[`${side}_ms`], "data-running": running ? "1" : "" },
        `${side === "white" ? "W" : "B"} ${clock(g.clocks[`${side}_ms`])}`);
      td.append(span);
    }
    return td;
  }

  // The players of the round's games not started yet who have not opened their game: absent at the start.
  function absentees(d) {
    const out = [];
    for (const b of d.boards) {
      const g = b.game;
      if (!g || b.result || g.status !== "ongoing" || g.started) continue;
      for (const side of g.absent || []) out.push({ name: b[side].name, table: b.table, side });
    }
    return out;
  }
  function defaultTime(d) {
    const g = d.boards.find((b) => b.game && b.game.default_time_ms !== undefined);
    return g ? g.game.default_time_ms : null;
  }
  function duration(ms) {
    const s = Math.round(ms / 1000);
    return s % 60 === 0 && s >= 60 ? `${s / 60} min` : `${s} s`;
  }

  function render(d) {
    document.title = `chesslaws · ${d.name} · round ${d.round}`;
    $("c-name").textContent = d.name;
    $("c-standings").href = `/tournament/${encodeURIComponent(d.id)}`;
    const g = d.regulations;
    $("c-info").textContent = "round console · tournament arbiter";
    $("c-regs").textContent = `${g.system.replace(/-/g, " ")} · Laws of ${g.edition} · time control ${TC.show(g.time_control)} · ` +
      `${d.paired_rounds} of ${d.total_rounds} rounds paired` + (d.finished ? " · finished" : "");
    $("c-bar").hidden = false;
    $("c-round").textContent = d.round ? `Round ${d.round}` : "No round yet";
    $("c-prev").disabled = d.round <= 1;
    $("c-next").disabled = d.round >= d.paired_rounds;
    $("c-pair").hidden = !d.can_pair;
    $("c-pair").textContent = `Pair round ${d.paired_rounds + 1}`;
    $("c-start-box").hidden = !d.counts.held;
    $("c-held-note").hidden = !d.counts.held;
    const away = absentees(d);
    const waiting = d.boards.some((b) => b.game && !b.result && b.game.status === "ongoing" && !b.game.started);
    $("c-absent").hidden = !waiting;
    $("c-absent").className = away.length ? "regs absent-list warn" : "regs absent-list";
    $("c-absent").textContent = !away.length ? "Every player has opened the game: all are at the board from the start."
      : `Not at the board yet (${away.length} of ${2 * d.boards.filter((b) => b.game && !b.game.started && !b.result).length} have not opened their game): ` +
        away.map((a) => `${a.name} (board ${a.table}, ${a.side})`).join(", ") + ".";
    $("c-sheet").hidden = !d.round;
    $("c-sheet").href = `/tournament/${encodeURIComponent(d.id)}/sheet${d.round ? `?round=${d.round}` : ""}#token=${encodeURIComponent(token)}`;
    TL.remember(d.id, { name: d.name, console: location.href });
    renderSeats(d);
    renderPlayers(d);
    const c = d.counts;
    const counts = [["boards", c.boards, false], ["in play", c.in_play, false], ["finished", c.finished, false],
      ["to decide", c.to_decide, c.to_decide > 0], ["offers & claims", c.pending, false], ["clocks stopped", c.clocks_stopped, c.clocks_stopped > 0]];
    $("c-counts").replaceChildren(...counts.map(([label, n, hot]) => {
      const s = el("span", { class: `count${hot ? " hot" : ""}`, "data-count": label });
      s.append(el("b", {}, n), document.createTextNode(` ${label === "boards" && n === 1 ? "board" : label}`));
      return s;
    }));

    const decide = [];
    const rows = d.boards.map((b) => {
      const needs = b.result ? [] : b.game ? b.game.to_decide : [b.game_id ? "its game cannot be reached: enter the result" : "no game on the server: enter the result"];
      const tr = el("tr", { "data-table": b.table, class: needs.length ? "decide" : "" });
      const moves = el("td", { class: "moves" });
      if (b.game) {
        moves.append(el("span", { class: "ply" }, `${b.game.ply} ply`));
        if (b.game.last_moves) moves.append(document.createTextNode(` · ${b.game.last_moves}`));
      }
      const state = el("td", { class: "state" });
      state.append(...states(b));
      const shown = b.result || (b.game && b.game.result !== "*" ? b.game.result : null);
      const res = el("td", { class: shown ? "res" : "res none" }, shown ? RESULTS[shown] || shown : "…");
      const enterable = !b.result && (!b.game || b.game.status === "annulled");
      if (enterable) res.append(resultForm(d.round, b));
      const links = el("td", { class: "open" });
      if (b.arbiter) links.append(el("a", { href: b.arbiter, target: "_blank", rel: "noopener", class: "arbiter-link" }, "arbiter console"));
      if (b.spectator) links.append(el("a", { href: b.spectator, target: "_blank", rel: "noopener" }, "watch"));
      tr.append(withLabel(el("td", { class: "table-no" }, b.table), "Board"), withLabel(player(b.white), "White"),
        withLabel(player(b.black), "Black"), withLabel(moves, "Moves"), withLabel(clockCell(b), "Clocks"),
        withLabel(state, "State"), withLabel(res, "Result"), links);
      for (const why of needs) decide.push([b, why]);
      return tr;
    });
    $("c-boards").tBodies[0].replaceChildren(...rows);
    $("c-boards-title").textContent = d.round ? `Round ${d.round}: ${d.boards.length} board${d.boards.length === 1 ? "" : "s"}` : "Boards";
    $("c-boards-panel").hidden = false;
    $("c-byes").replaceChildren(...d.byes.map((y) => el("p", { class: "bye" }, `${y.name}: ${BYES[y.kind] || y.kind}`)));
    if (!d.round) $("c-byes").replaceChildren(el("p", { class: "bye" }, "Round 1 is not paired yet."));
    $("c-attention").hidden = decide.length === 0;
    $("c-decide").replaceChildren(...decide.map(([b, why]) => {
      const li = el("li", { "data-table": b.table });
      li.append(el("b", {}, `Board ${b.table}`), document.createTextNode(` (${b.white.name} – ${b.black.name}): ${why} `));
      if (b.arbiter) li.append(el("a", { href: b.arbiter, target: "_blank", rel: "noopener" }, "open its arbiter console"));
      return li;
    }));
  }

  function renderSeats(d) {
    const rows = [];
    for (const b of d.boards) {
      for (const side of ["white", "black"]) {
        const p = b[side];
        if (!p.link) continue;
        const row = TL.linkRow(`${b.table} ${side === "white" ? "W" : "B"}`, p.link, `${p.name} (board ${b.table}, ${side})`);
        row.setAttribute("data-table", b.table);
        row.setAttribute("data-seat", side);
        row.insertBefore(el("span", { class: "who" }, p.name), row.children[1]);
        rows.push(row);
      }
    }
    $("c-seats-panel").hidden = rows.length === 0;
    $("c-seats").replaceChildren(...rows);
  }

  function renderPlayers(d) {
    $("c-players-panel").hidden = false;
    $("c-add").hidden = d.paired_rounds > 0;
    $("c-players-note").textContent = d.paired_rounds > 0
      ? "Each player's own page shows the current game's link and the results: hand it out once for the whole event."
      : "Players are registered until round 1 is paired; their own pages come with the first pairing.";
    $("c-players").tBodies[0].replaceChildren(...d.players.map((p) => {
      const tr = el("tr", { "data-sn": p.start_number });
      const page = el("td", { class: "name" });
      if (p.page) page.append(TL.linkRow("Page", p.page, `${p.name}'s own page`));
      const act = el("td", {});
      if (p.withdrawn_from) act.append(el("span", { class: "badge" }, `withdrawn from round ${p.withdrawn_from}`));
      else if (!d.finished) {
        const btn = el("button", { type: "button", class: "danger", "aria-label": `withdraw ${p.name}` }, "Withdraw");
        btn.addEventListener("click", async () => {
          if (!confirm(`Withdraw ${p.name} from round ${d.paired_rounds + 1} on?`)) return;
          await post(`/players/${p.start_number}/withdraw`, {});
        });
        act.append(btn);
      }
      tr.append(el("td", {}, p.start_number), el("td", { class: "name" }, p.name), el("td", {}, p.rating || ""), page, act);
      return tr;
    }));
  }

  async function post(path, body) {
    const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}${path}`, {
      method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const out = await r.json();
    showError(r.ok ? "" : out.error || `error ${r.status}`);
    await refresh();
    return r.ok ? out : null;
  }

  function resultForm(round, b) {
    const form = el("span", { class: "enter", role: "group", "aria-label": `enter the result of board ${b.table}` });
    form.addEventListener("pointerenter", () => { holding = true; });
    form.addEventListener("pointerleave", () => { holding = false; if (again) refresh(); });
    for (const [value, label] of ENTER) {
      const btn = el("button", { type: "button", "data-result": value, title: `enter ${value}` }, label);
      btn.addEventListener("click", async () => {
        if (!confirm(`Board ${b.table} (${b.white.name} – ${b.black.name}): enter the result ${value}?`)) return;
        const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}/rounds/${round}/boards/${b.table}/result`, {
          method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ result: value }) });
        const body = await r.json();
        showError(r.ok ? "" : body.error || `error ${r.status}`);
        holding = false;
        refresh();
      });
      form.append(btn);
    }
    return form;
  }

  function tick() {
    if (!data) return;
    const gone = performance.now() - fetchedAt;
    for (const span of document.querySelectorAll(".ck[data-running='1']")) {
      const ms = Number(span.getAttribute("data-ms")) - gone;
      span.textContent = `${span.classList.contains("white") ? "W" : "B"} ${clock(ms)}`;
    }
  }

  // One read at a time; a change (or a click) that comes while the page reads, or while the pointer is on a
  // result form, makes it read again afterwards: what it shows is never older than the last change.
  let again = false;
  async function refresh() {
    if (!token) return;
    if (busy || holding) { again = true; return; }
    again = false;
    busy = true;
    try {
      const q = chosen ? `?round=${chosen}` : "";
      const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}/console${q}`, { headers: { Authorization: `Bearer ${token}` } });
      const body = await r.json();
      if (r.status === 403) { token = ""; $("c-login").hidden = false; showError("This token is not the tournament arbiter's."); return; }
      if (!r.ok) { showError(body.error || `error ${r.status}`); return; }
      showError("");
      $("c-login").hidden = true;
      data = body;
      fetchedAt = performance.now();
      render(body);
    } catch (e) {
      showError("The server cannot be reached; trying again…");
    } finally {
      busy = false;
      if (again && !holding) refresh();
    }
  }

  $("c-login").addEventListener("submit", (ev) => {
    ev.preventDefault();
    token = $("c-token").value.trim();
    history.replaceState(null, "", `#token=${encodeURIComponent(token)}`);
    refresh();
  });
  $("c-prev").addEventListener("click", () => { if (data && data.round > 1) { chosen = data.round - 1; refresh(); } });
  $("c-next").addEventListener("click", () => {
    if (data && data.round < data.paired_rounds) { chosen = data.round + 1 === data.paired_rounds ? null : data.round + 1; refresh(); }
  });
  $("c-pair").addEventListener("click", async () => {
    $("c-pair").disabled = true;
    try {
      chosen = null;
      await post("/rounds", { start: "held" });
    } finally {
      $("c-pair").disabled = false;
    }
  });
  // Starting the round never forfeits anyone by one click: who has not opened the game is named first, with
  // what the default time (Article 6.7) will do to him, and the arbiter confirms.
  function startQuestion(d, minutes) {
    const away = absentees(d);
    if (!away.length) return null;
    const when = minutes > 0 ? `in ${minutes} min` : "now";
    const dt = defaultTime(d);
    const fate = dt === 0
      ? "The default time is 0 (Article 6.7.1): each of them loses by default at once unless at the board by the start."
      : `Each of them loses by default if not at the board within the default time${dt ? ` (${duration(dt)})` : ""} after the start (Article 6.7).`;
    return `Start round ${d.round} ${when}?\n\n${away.length === 1 ? "1 player has" : `${away.length} players have`} not opened the game yet:\n` +
      away.map((a) => `  ${a.name} (board ${a.table}, ${a.side})`).join("\n") + `\n\n${fate}`;
  }
  $("c-start").addEventListener("click", async () => {
    if (!data) return;
    const minutes = Number($("c-start-in").value || 0);
    const question = startQuestion(data, minutes);
    if (question && !confirm(question)) return;
    $("c-start").disabled = true;
    try { await post(`/rounds/${data.round}/start`, { in: 60 * minutes }); } finally { $("c-start").disabled = false; }
  });
  $("c-add").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { name: $("c-add-name").value.trim() };
    if ($("c-add-rating").value !== "") body.rating = Number($("c-add-rating").value);
    if (await post("/players", body)) { $("c-add").reset(); $("c-add-name").focus(); }
  });
  if (!token) $("c-login").hidden = false;
  // No polling: the event's socket says when anything changed (a move, an ending, a result).
  TL.follow(id, refresh);
  setInterval(tick, 250);
})();
