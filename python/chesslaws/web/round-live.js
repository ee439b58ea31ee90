"use strict";
// A round broadcast live: every board of the round as it stands (players, position, last move, clocks,
// result), read again whenever the event changes (its WebSocket). The clocks of the games in play count down
// between two readings; the round's PGN feed is linked for viewers that poll a URL.
(function () {
  const parts = location.pathname.split("/").filter(Boolean);  // tournament/{id}/round/{n}
  const id = decodeURIComponent(parts[1] || "");
  const round = Number(parts[3]) || 1;
  const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
  const { $, el, RESULTS } = TL;
  let shown = null, readAt = 0;

  function clock(ms) {
    if (ms === null || ms === undefined) return "";
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
  }
  function mini(fen, last) {
    const grid = el("div", { class: "mini", role: "img" });
    const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
    const lit = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
    rows.forEach((row, r) => {
      let f = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) {
          for (let i = 0; i < Number(ch); i++) grid.append(square(r, f++, null, lit));
        } else grid.append(square(r, f++, ch, lit));
      }
    });
    return grid;
  }
  function square(r, f, piece, lit) {
    const name = "abcdefgh"[f] + (8 - r);
    const sq = el("span", { class: "sq " + ((r + f) % 2 ? "d" : "l") + (lit.includes(name) ? " last" : "") });
    if (piece) {
      const white = piece === piece.toUpperCase();
      sq.append(el("span", { class: "pc " + (white ? "w" : "b") }, GLYPH[piece.toLowerCase()]));
    }
    return sq;
  }
  function player(p) {
    return (p.title ? p.title + " " : "") + p.name + (p.rating ? ` (${p.rating})` : "");
  }
  function card(b) {
    const box = el("article", { class: "live-board", "data-table": b.table });
    const over = b.result || (b.status && b.status !== "ongoing" && b.game_result);
    const head = el("h2", {}, T("Board {n}", { n: b.table }));
    const black = el("p", { class: "side black" + (b.clocks && b.clocks.running === "black" ? " running" : "") });
    black.append(el("span", { class: "who" }, player(b.black)), el("span", { class: "clk", "data-side": "black" }, b.clocks ? clock(b.clocks.black_ms) : ""));
    const white = el("p", { class: "side white" + (b.clocks && b.clocks.running === "white" ? " running" : "") });
    white.append(el("span", { class: "who" }, player(b.white)), el("span", { class: "clk", "data-side": "white" }, b.clocks ? clock(b.clocks.white_ms) : ""));
    const board = mini(b.fen, b.last_move);
    board.setAttribute("aria-label", T("Board {n}", { n: b.table }) + (b.last_san ? " · " + b.last_san : ""));
    let state;
    if (over) state = RESULTS[b.result || b.game_result] || (b.result || b.game_result);
    else if (b.started === false) state = T("waiting for the start");
    else if (b.ply) state = `${Math.ceil(b.ply / 2)}${b.ply % 2 ? "." : "…"} ${b.last_san || ""}`;
    else state = T("in play");
    box.append(head, black, board, white, el("p", { class: "state" + (over ? " over" : "") }, state));
    if (b.game_id) {
      const watch = el("a", { href: `/game/${encodeURIComponent(b.game_id)}`, class: "watch" }, T("Watch"));
      box.append(watch);
    }
    return box;
  }
  function render(v) {
    shown = v;
    readAt = performance.now();
    document.title = `chesslaws · ${v.name} · ${T("Round {n}", { n: v.round })}`;
    $("live-name").textContent = `${v.name} · ${T("Round {n}", { n: v.round })}`;
    $("live-info").textContent = T("live");
    const nav = $("live-rounds");
    nav.replaceChildren(...Array.from({ length: v.rounds }, (_, i) => {
      const a = el("a", { href: `/tournament/${encodeURIComponent(id)}/round/${i + 1}` }, String(i + 1));
      if (i + 1 === v.round) a.setAttribute("aria-current", "page");
      return a;
    }));
    $("live-byes").textContent = v.byes.map((y) => `${y.name}: ${TL.bye(y.kind)}`).join(" · ");
    $("live-boards").replaceChildren(...v.boards.map(card));
  }
  function tick() {
    if (!shown) return;
    const gone = performance.now() - readAt;
    for (const b of shown.boards) {
      const c = b.clocks;
      if (!c || !c.running || b.result) continue;
      const span = document.querySelector(`.live-board[data-table="${b.table}"] .clk[data-side="${c.running}"]`);
      if (span) span.textContent = clock(c[c.running + "_ms"] - gone);
    }
  }
  async function refresh() {
    try {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}/rounds/${round}/boards`);
      const v = await r.json();
      if (!r.ok) { $("live-name").textContent = T(v.error || "No such round"); return; }
      render(v);
    } catch (e) { /* the server is restarting: the next change reads again */ }
  }
  let busy = false, again = false;
  async function changed() {
    if (busy) { again = true; return; }
    busy = true;
    try { await refresh(); } finally { busy = false; }
    if (again) { again = false; changed(); }
  }
  $("live-standings").href = `/tournament/${encodeURIComponent(id)}`;
  $("live-pgn").href = `/api/tournaments/${encodeURIComponent(id)}/rounds/${round}/pgn`;
  setInterval(tick, 250);
  TL.follow(id, changed);
})();
