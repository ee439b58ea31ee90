"use strict";
// The round's arbiter console: every board of a round as its game stands (moves, clocks, claims, stopped
// clocks, flags, absences, results), read again whenever the event changes (its WebSocket), with the link to
// each game's arbiter console, every player's seat link (copy, QR, the printable pairing sheet) and own page.
// The tournament arbiter's token comes in the URL fragment (#token=...) and is sent as a Bearer token.
(function () {
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[parts.length - 2] || "");
  const { $, el, RESULTS } = TL;
  // What waits on a board (the game's pending offers, claims and incidents), by its kind.
  const PENDING = { draw_offer: "draw offer", sealed_move: "sealed move", illegal_move_claimable: "illegal move to claim",
    touch_move_claimable: "touch-move breach to claim", clock_not_pressed: "clock not pressed", pieces_displaced: "pieces displaced",
    illegal_move_not_completed: "illegal move not completed", announcement_differs: "announced move differs", claim: "claim", appeal: "appeal" };
  const CLAIMS = { quickplay: "quickplay finish", increment: "no increment (quickplay finish)" };
  const pendingText = (p) => T("{what} by {colour}", { what: PENDING[p.kind] ? T(PENDING[p.kind]) : p.kind.replace(/_/g, " "), colour: TL.side(p.by) });
  // What the arbiter must decide on a board (the server's list, by kind).
  function decision(x) {
    if (x.kind === "flag") return T("{colour}'s flag has fallen", { colour: TL.side(x.by) });
    if (x.kind === "clocks_stopped") return T("clocks stopped");
    if (x.kind === "adjourned") return T("adjourned: the sealed move waits");
    if (x.kind === "annulled") return T("annulled: enter the board's result in the Result column");
    const reason = x.reason ? ` (${CLAIMS[x.reason] ? T(CLAIMS[x.reason]) : x.reason})` : "";
    return pendingText(x) + reason;
  }
  let token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  let chosen = null; // the round the arbiter chose; null follows the latest round
  let data = null;
  let fetchedAt = 0;
  let busy = false;
  let holding = false; // the pointer is on a result form: the next refreshes wait, so no click is lost
  const ENTER = [["1-0", "1–0"], ["1/2-1/2", "½–½"], ["0-1", "0–1"], ["+-", "+ −"], ["-+", "− +"], ["--", "− −"]];

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
  // A player at his board: "Anna (board 2, White)".
  const seatOf = (a) => T("{name} (board {n}, {colour})", { name: a.name, n: a.table, colour: TL.side(a.side) });

  function states(b) {
    const g = b.game, out = [];
    if (b.result) out.push(badge(b.termination ? T("over: {how}", { how: endingText(b.termination) }) : T("result entered"), ""));
    if (!g) { if (!b.result) out.push(badge(b.game_id ? T("game not reachable") : T("no game"), "warn")); return out; }
    if (!b.result && g.status === "finished") out.push(badge(T("over: {how}", { how: endingText(g.termination) }), ""));
    if (g.status === "ongoing") {
      if (g.held) out.push(badge(T("waits for the round's start"), "info"));
      else if (!g.started) out.push(badge(T("not started"), "info"));
      else out.push(badge(T("{colour} to move", { colour: TL.side(g.turn) }), "live"));
    }
    for (const s of g.waiting_for || []) if (g.status === "ongoing") out.push(badge(T("waiting for {colour}", { colour: TL.side(s) }), "info"));
    if (g.status === "ongoing" && !g.started) { // before t=0: who has opened the game, who has not
      for (const s of g.present_early || []) out.push(badge(T("{name} is here", { name: b[s].name }), "live"));
      for (const s of g.absent || []) out.push(badge(T("{name} has not opened the game", { name: b[s].name }), "warn"));
    } else for (const s of g.absent || []) if (g.status === "ongoing") out.push(badge(T("{colour} absent", { colour: TL.side(s) }), "info"));
    for (const p of g.pending || []) out.push(badge(pendingText(p), p.kind === "draw_offer" ? "info" : "warn"));
    if (g.clocks_stopped) out.push(badge(T("clocks stopped"), "warn"));
    for (const c of g.flags || []) out.push(badge(T("{colour}'s flag down", { colour: TL.side(c) }), "warn"));
    if (g.status === "adjourned") out.push(badge(T("adjourned"), "warn"));
    if (g.status === "annulled") out.push(badge(T("annulled"), "warn"));
    return out;
  }

  function clockCell(b) {
    const td = el("td", { class: "clocks" });
    const g = b.game;
    if (!g || !g.clocks.timed) { td.textContent = g ? T("no clock") : ""; return td; }
    for (const side of ["white", "black"]) {
      const running = g.clocks.running === side && g.started;
      const cls = ["ck", side, running ? "running" : "", (g.flags || []).includes(side) ? "flag" : "", g.clocks_stopped ? "stopped" : ""].join(" ");
      const span = el("span", { class: cls, "data-ms": g.clocks[`${side}_ms`], "data-running": running ? "1" : "", "data-side": side,
        title: TL.colour(side) }, `${initial(side)} ${clock(g.clocks[`${side}_ms`])}`);
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
    return s % 60 === 0 && s >= 60 ? T("{n} min", { n: s / 60 }) : T("{n} s", { n: s });
  }
  // A side's initial, as the clocks and the seat links show it (W and B; S and W in German).
  const initial = (side) => (side === "white" ? T("W (White)") : T("B (Black)")).slice(0, 1);

  function render(d) {
    document.title = `chesslaws · ${d.name} · ${T("round {n}", { n: d.round })}`;
    $("c-name").textContent = d.name;
    $("c-standings").href = `/tournament/${encodeURIComponent(d.id)}`;
    const g = d.regulations;
    $("c-info").textContent = T("round console · tournament arbiter");
    $("c-regs").textContent = `${TL.system(g.system)} · ${T("Laws of {e} · time control {tc}", { e: g.edition, tc: TC.show(g.time_control) })} · ` +
      T("{n} of {total} rounds paired", { n: d.paired_rounds, total: d.total_rounds }) + (d.finished ? ` · ${T("finished")}` : "");
    $("c-bar").hidden = false;
    $("c-round").textContent = d.round ? T("Round {n}", { n: d.round }) : T("No round yet");
    $("c-prev").disabled = d.round <= 1;
    $("c-next").disabled = d.round >= d.paired_rounds;
    $("c-pair").hidden = !d.can_pair;
    $("c-pair").textContent = T("Pair round {n}", { n: d.paired_rounds + 1 });
    $("c-start-box").hidden = !d.counts.held;
    $("c-held-note").hidden = !d.counts.held;
    const away = absentees(d);
    const waiting = d.boards.some((b) => b.game && !b.result && b.game.status === "ongoing" && !b.game.started);
    $("c-absent").hidden = !waiting;
    $("c-absent").className = away.length ? "regs absent-list warn" : "regs absent-list";
    $("c-absent").textContent = !away.length ? T("Every player has opened the game: all are at the board from the start.")
      : T("Not at the board yet ({n} of {total} have not opened their game):", { n: away.length, total: 2 * d.boards.filter((b) => b.game && !b.game.started && !b.result).length }) +
        " " + away.map(seatOf).join(", ") + ".";
    $("c-sheet").hidden = !d.round;
    // The round for its spectators: its boards live, and its PGN feed for lichess Broadcast and other viewers.
    $("c-live").hidden = $("c-pgn").hidden = !d.round;
    $("c-live").href = `/tournament/${encodeURIComponent(d.id)}/round/${d.round}`;
    $("c-pgn").href = `/api/tournaments/${encodeURIComponent(d.id)}/rounds/${d.round}/pgn`;
    $("c-sheet").href = `/tournament/${encodeURIComponent(d.id)}/sheet${d.round ? `?round=${d.round}` : ""}#token=${encodeURIComponent(token)}`;
    TL.remember(d.id, { name: d.name, console: location.href });
    renderSeats(d);
    renderPlayers(d);
    const c = d.counts;
    const counts = [["boards", c.boards, false], ["in play", c.in_play, false], ["finished", c.finished, false],
      ["to decide", c.to_decide, c.to_decide > 0], ["offers & claims", c.pending, false], ["clocks stopped", c.clocks_stopped, c.clocks_stopped > 0]];
    $("c-counts").replaceChildren(...counts.map(([label, n, hot]) => {
      const s = el("span", { class: `count${hot ? " hot" : ""}`, "data-count": label });
      s.append(el("b", {}, n), document.createTextNode(` ${T(label === "boards" && n === 1 ? "board" : label)}`));
      return s;
    }));

    const decide = [];
    const rows = d.boards.map((b) => {
      const needs = b.result ? [] : b.game ? b.game.to_decide.map(decision)
        : [b.game_id ? T("its game cannot be reached: enter the result") : T("no game on the server: enter the result")];
      const tr = el("tr", { "data-table": b.table, class: needs.length ? "decide" : "" });
      const moves = el("td", { class: "moves" });
      if (b.game) {
        moves.append(el("span", { class: "ply" }, T("{n} ply", { n: b.game.ply })));
        if (b.game.last_moves) moves.append(document.createTextNode(` · ${b.game.last_moves}`));
      }
      const state = el("td", { class: "state" });
      state.append(...states(b));
      const shown = b.result || (b.game && b.game.result !== "*" ? b.game.result : null);
      const res = el("td", { class: shown ? "res" : "res none" }, shown ? RESULTS[shown] || shown : "…");
      const enterable = !b.result && (!b.game || b.game.status === "annulled");
      if (enterable) res.append(resultForm(d.round, b));
      const links = el("td", { class: "open" });
      if (b.arbiter) links.append(el("a", { href: b.arbiter, target: "_blank", rel: "noopener", class: "arbiter-link" }, T("arbiter console")));
      if (b.spectator) links.append(el("a", { href: b.spectator, target: "_blank", rel: "noopener" }, T("watch")));
      tr.append(withLabel(el("td", { class: "table-no" }, b.table), T("Board")), withLabel(player(b.white), T("White")),
        withLabel(player(b.black), T("Black")), withLabel(moves, T("Moves")), withLabel(clockCell(b), T("Clocks")),
        withLabel(state, T("State")), withLabel(res, T("Result")), links);
      for (const why of needs) decide.push([b, why]);
      return tr;
    });
    $("c-boards").tBodies[0].replaceChildren(...rows);
    $("c-boards-title").textContent = d.round ? T(d.boards.length === 1 ? "Round {n}: 1 board" : "Round {n}: {count} boards", { n: d.round, count: d.boards.length }) : T("Boards");
    $("c-boards-panel").hidden = false;
    $("c-byes").replaceChildren(...d.byes.map((y) => el("p", { class: "bye" }, `${y.name}: ${TL.bye(y.kind)}`)));
    if (!d.round) $("c-byes").replaceChildren(el("p", { class: "bye" }, T("Round 1 is not paired yet.")));
    $("c-attention").hidden = decide.length === 0;
    $("c-decide").replaceChildren(...decide.map(([b, why]) => {
      const li = el("li", { "data-table": b.table });
      li.append(el("b", {}, T("Board {n}", { n: b.table })), document.createTextNode(` (${b.white.name} – ${b.black.name}): ${why} `));
      if (b.arbiter) li.append(el("a", { href: b.arbiter, target: "_blank", rel: "noopener" }, T("open its arbiter console")));
      return li;
    }));
  }

  function renderSeats(d) {
    const rows = [];
    for (const b of d.boards) {
      for (const side of ["white", "black"]) {
        const p = b[side];
        if (!p.link) continue;
        const row = TL.linkRow(`${b.table} ${initial(side)}`, p.link, seatOf({ name: p.name, table: b.table, side }));
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
      ? T("Each player's own page shows the current game's link and the results: hand it out once for the whole event.")
      : T("Players are registered until round 1 is paired; their own pages come with the first pairing.");
    $("c-players").tBodies[0].replaceChildren(...d.players.map((p) => {
      const tr = el("tr", { "data-sn": p.start_number });
      const page = el("td", { class: "name" });
      if (p.page) page.append(TL.linkRow(T("Page"), p.page, T("{name}'s own page", { name: p.name })));
      const act = el("td", {});
      if (p.withdrawn_from) act.append(el("span", { class: "badge" }, T("withdrawn from round {n}", { n: p.withdrawn_from })));
      else if (!d.finished) {
        const btn = el("button", { type: "button", class: "danger", "aria-label": T("withdraw {name}", { name: p.name }) }, T("Withdraw"));
        btn.addEventListener("click", async () => {
          if (!confirm(T("Withdraw {name} from round {n} on?", { name: p.name, n: d.paired_rounds + 1 }))) return;
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
    showError(r.ok ? "" : out.error || T("error {status}", { status: r.status }));
    await refresh();
    return r.ok ? out : null;
  }

  function resultForm(round, b) {
    const form = el("span", { class: "enter", role: "group", "aria-label": T("enter the result of board {n}", { n: b.table }) });
    form.addEventListener("pointerenter", () => { holding = true; });
    form.addEventListener("pointerleave", () => { holding = false; if (again) refresh(); });
    for (const [value, label] of ENTER) {
      const btn = el("button", { type: "button", "data-result": value, title: T("enter {result}", { result: value }) }, label);
      btn.addEventListener("click", async () => {
        if (!confirm(T("Board {n} ({white} – {black}): enter the result {result}?", { n: b.table, white: b.white.name, black: b.black.name, result: value }))) return;
        const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}/rounds/${round}/boards/${b.table}/result`, {
          method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ result: value }) });
        const body = await r.json();
        showError(r.ok ? "" : body.error || T("error {status}", { status: r.status }));
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
      span.textContent = `${initial(span.dataset.side)} ${clock(ms)}`;
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
      if (r.status === 403) { token = ""; $("c-login").hidden = false; showError(T("This token is not the tournament arbiter's.")); return; }
      if (!r.ok) { showError(body.error || T("error {status}", { status: r.status })); return; }
      showError("");
      $("c-login").hidden = true;
      data = body;
      fetchedAt = performance.now();
      render(body);
    } catch (e) {
      showError(T("The server cannot be reached; trying again…"));
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
    const dt = defaultTime(d);
    const fate = dt === 0
      ? T("The default time is 0 (Article 6.7.1): each of them loses by default at once unless at the board by the start.")
      : dt ? T("Each of them loses by default if not at the board within the default time ({time}) after the start (Article 6.7).", { time: duration(dt) })
        : T("Each of them loses by default if not at the board within the default time after the start (Article 6.7).");
    const ask = minutes > 0 ? T("Start round {n} in {m} min?", { n: d.round, m: minutes }) : T("Start round {n} now?", { n: d.round });
    const who = away.length === 1 ? T("1 player has not opened the game yet:") : T("{n} players have not opened the game yet:", { n: away.length });
    return `${ask}\n\n${who}\n` + away.map((a) => `  ${seatOf(a)}`).join("\n") + `\n\n${fate}`;
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
